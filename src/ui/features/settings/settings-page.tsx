export default function Page() {
  return <h2>settings-page (to be built)</h2>;
}
