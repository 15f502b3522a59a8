export default function Page() {
  return <h2>profiles-page (to be built)</h2>;
}
