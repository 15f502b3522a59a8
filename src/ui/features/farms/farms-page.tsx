export default function Page() {
  return <h2>farms-page (to be built)</h2>;
}
