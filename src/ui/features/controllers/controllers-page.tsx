export default function Page() {
  return <h2>controllers-page (to be built)</h2>;
}
