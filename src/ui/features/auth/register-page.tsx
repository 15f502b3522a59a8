export default function Page() {
  return <h2>register-page (to be built)</h2>;
}
