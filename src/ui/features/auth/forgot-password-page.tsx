export default function Page() {
  return <h2>forgot-password-page (to be built)</h2>;
}
