export default function Page() {
  return <h2>dashboard-page (to be built)</h2>;
}
