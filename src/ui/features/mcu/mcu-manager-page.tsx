export default function Page() {
  return <h2>mcu-manager-page (to be built)</h2>;
}
