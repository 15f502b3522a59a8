export default function Page() {
  return <h2>sensors-page (to be built)</h2>;
}
