import { Link } from "react-router-dom";

export default function NotFoundPage() {
  return (
    <main className="min-h-screen flex items-center justify-center bg-gray-50 p-6">
      <div className="text-center">
        <p className="text-6xl font-bold text-brand-700">404</p>
        <h1 className="mt-2 text-2xl font-semibold text-gray-900">Page not found</h1>
        <p className="mt-2 text-gray-600">There is nothing at this address.</p>
        <Link to="/dashboard" className="btn-primary mt-6">
          Go to the dashboard
        </Link>
      </div>
    </main>
  );
}
