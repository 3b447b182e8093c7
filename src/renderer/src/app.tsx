import { useEffect, useState } from 'react';
import type { Patient } from '../../shared/contract';

/** Placeholder shell until the front-desk screens land: lists today's patients. */
export function App() {
  const [patients, setPatients] = useState<Patient[]>([]);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    const load = async () => {
      const result = await window.coverdesk.patients.list({ limit: 100 });
      if (result.ok) setPatients(result.value.data);
      else setError(result.error.message);
    };
    void load();
    return window.coverdesk.on('records.changed', () => void load());
  }, []);

  return (
    <main>
      <h1>Coverdesk</h1>
      {error && <p role="alert">{error}</p>}
      <ul>
        {patients.map((p) => (
          <li key={p.id}>
            {p.last_name}, {p.first_name}
          </li>
        ))}
      </ul>
    </main>
  );
}
