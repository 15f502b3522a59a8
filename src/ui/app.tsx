/** The app shell. The screens of SPEC §2 arrive with their issue; until then this says what runs. */
export function App() {
  return (
    <main className="min-h-screen flex items-center justify-center bg-brand-50 p-6 font-sans">
      <section className="max-w-lg text-center">
        <img src="/favicon.svg" alt="" className="w-16 h-16 mx-auto mb-4" />
        <h1 className="text-3xl font-bold text-brand-900 mb-2">Mushroom Farm</h1>
        <p className="text-gray-700">
          The server, its database and the API are running. The farm screens are on their way.
        </p>
      </section>
    </main>
  );
}
