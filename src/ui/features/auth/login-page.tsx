export default function Page() {
  return <h2>login-page (to be built)</h2>;
}
