import { useState } from 'react';
import { useBridge } from '../bridge/bridge-provider';
import type { Route } from '../state/navigation';
import { useNavigation } from '../state/navigation';
import { Panel } from './notice';
import { PatientSearch } from './patient-search';
import { RegisterPatient } from './register-patient';
import { ScreenTitle } from './screen-title';

/**
 * Eligibility and Discovery are about one patient: without one, they start by finding them.
 * Discovery is also for the patient with no card: when no one matches, they are registered
 * right here (with a blank card) and the discovery starts at once.
 */
export function PatientPickerScreen({ title, screen }: { title: string; screen: 'eligibility' | 'discovery' }) {
  const { navigate } = useNavigation();
  const bridge = useBridge();
  const [registering, setRegistering] = useState<string | null>(null);
  return (
    <div className="screen">
      <div className="screen__header">
        <ScreenTitle subtitle="Choose the patient first.">{title}</ScreenTitle>
      </div>
      <Panel>
        <PatientSearch
          id={`${screen}-patient-search`}
          label="Find the patient"
          onPick={(row) => navigate({ screen, patientId: row.patient_id } as Route)}
          onRegister={screen === 'discovery' ? setRegistering : undefined}
        />
      </Panel>
      {registering !== null && (
        <Panel>
          <RegisterPatient
            key={registering}
            query={registering}
            submitLabel="Register and run discovery"
            onRegistered={async (patient, cardId) => {
              // Should the discovery not start, the patient's Discovery screen offers it again.
              await bridge.discoveries.create({ insurance_card_id: cardId });
              navigate({ screen: 'discovery', patientId: patient.id, cardId });
            }}
          />
        </Panel>
      )}
    </div>
  );
}
