import type { Route } from '../state/navigation';
import { useNavigation } from '../state/navigation';
import { Panel } from './notice';
import { PatientSearch } from './patient-search';
import { ScreenTitle } from './screen-title';

/** Eligibility and Discovery are about one patient: without one, they start by finding them. */
export function PatientPickerScreen({ title, screen }: { title: string; screen: 'eligibility' | 'discovery' }) {
  const { navigate } = useNavigation();
  return (
    <div className="screen">
      <div className="screen__header">
        <ScreenTitle subtitle="Choose the patient first.">{title}</ScreenTitle>
      </div>
      <Panel>
        <PatientSearch id={`${screen}-patient-search`} label="Find the patient" onPick={(row) => navigate({ screen, patientId: row.patient_id } as Route)} />
      </Panel>
    </div>
  );
}
