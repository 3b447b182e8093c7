import { useEffect, useState, type FormEvent, type ReactNode } from 'react';
import type { ConnectionTest, DeskSettingsUpdate, SyncStatus } from '../../../shared/bridge/desk-contract';
import { formMessage, plainFieldErrors, type FieldMessages } from '../forms/field-errors';
import { useQueryClient } from '@tanstack/react-query';
import { useBridge } from '../bridge/bridge-provider';
import { setBridgeData } from '../bridge/query-client';
import { useBridgeQuery } from '../bridge/use-bridge-query';
import { useDeskStatus } from '../state/desk-status';
import { useReferenceData } from '../state/reference-data';
import { Badge } from '../ui/badge';
import { Button } from '../ui/button';
import { Combobox, type ComboOption } from '../ui/combobox';
import { ConfirmDialog } from '../ui/confirm-dialog';
import { SERVICE_TYPE_OPTIONS, filterServiceTypes } from '../eligibility/service-type-options';
import type { ServiceType } from '../../../shared/contract';
import { SelectField, TextField } from '../ui/field';
import { Loading, Notice } from '../ui/notice';
import { ScreenTitle } from '../ui/screen-title';
import { FeeSchedulePanel } from '../estimates/fee-schedule-panel';
import { TrustedIssuersPanel } from '../digital-cards/trusted-issuers-panel';
import { BackupsPanel } from '../backups/backups-panel';
import { RecoveryPanel } from '../settings/recovery-panel';
import { StaffPanel } from '../settings/staff-panel';
import { ReceiptSettingsPanel } from '../collections/receipt-settings-panel';
import { IdleLockPanel } from '../security/session-safety-panels';
import { IntegrationsPanel } from '../local-api/integrations-panel';

const LABELS = { upstream_url: 'Service address', api_key: 'API key', default_provider_id: 'Default provider', hot_folder: 'Hot folder', default_service_type: 'Default service type' };

const SERVICE_OPTIONS: ComboOption[] = SERVICE_TYPE_OPTIONS.map((o) => ({ value: o.value, label: o.label, detail: [o.common && 'Common', o.code].filter(Boolean).join(' · ') }));
const filterServiceOptions = (query: string): ComboOption[] => filterServiceTypes(query).map((o) => ({ value: o.value, label: o.label, detail: [o.common && 'Common', o.code].filter(Boolean).join(' · ') }));

type Saved = { section: string; tone: 'ok' | 'bad'; text: string } | null;

export function SettingsScreen() {
  const bridge = useBridge();
  const { settings, sync, reload } = useDeskStatus();
  const { providers } = useReferenceData();
  const [url, setUrl] = useState('');
  const [apiKey, setApiKey] = useState('');
  const [provider, setProvider] = useState('');
  const [hotFolder, setHotFolder] = useState('');
  const [serviceType, setServiceType] = useState<ServiceType | ''>('');
  const [errors, setErrors] = useState<FieldMessages>({});
  const [saved, setSaved] = useState<Saved>(null);
  const [connection, setConnection] = useState<ConnectionTest | null>(null);
  // A change of service refused because records wait for the current one: what the host said, and the change to confirm.
  const [switching, setSwitching] = useState<{ message: string; section: string; update: DeskSettingsUpdate } | null>(null);

  useEffect(() => {
    if (!settings) return;
    setUrl(settings.upstream_url ?? '');
    setProvider(settings.default_provider_id ?? '');
    setHotFolder(settings.hot_folder ?? '');
    setServiceType(settings.default_service_type ?? '');
  }, [settings]);

  const save = async (section: string, update: DeskSettingsUpdate) => {
    setSaved(null);
    if (section === 'connection') setConnection(null);
    const result = await bridge.settings.update(update);
    if (!result.ok && result.error.code === 'upstream_switch_unconfirmed') {
      setSwitching({ message: result.error.message, section, update });
      return;
    }
    if (!result.ok) {
      setErrors(plainFieldErrors(result.error, LABELS));
      setSaved({ section, tone: 'bad', text: formMessage(result.error) });
      return;
    }
    setErrors({});
    setApiKey('');
    if (result.value.connection) setConnection(result.value.connection);
    else setSaved({ section, tone: 'ok', text: 'Saved.' });
    reload();
  };

  const saveConnection = (event: FormEvent) => {
    event.preventDefault();
    const trimmed = url.trim();
    if (!trimmed) {
      setErrors({ upstream_url: 'Enter the service address, or use the sandbox.' });
      return;
    }
    if (!settings?.api_key_set && !apiKey.trim()) {
      setErrors({ api_key: 'Enter the API key the service gave you.' });
      return;
    }
    void save('connection', { upstream_url: trimmed, ...(apiKey.trim() ? { api_key: apiKey.trim() } : {}) });
  };

  const message = (section: string) =>
    saved?.section === section && (
      <Notice tone={saved.tone} live>
        {saved.text}
      </Notice>
    );

  return (
    <div className="screen">
      <div className="screen__header">
        <ScreenTitle>Settings</ScreenTitle>
      </div>
      {!settings ? (
        <Loading label="Reading the settings…" />
      ) : (
        <>
          <form className="panel" onSubmit={saveConnection} aria-labelledby="settings-connection" noValidate>
            <div className="panel__header">
              <h2 id="settings-connection">Eligibility service</h2>
              <ConnectionBadge mode={settings.mode} sync={sync} />
            </div>
            <p className="muted">
              {settings.mode === 'sandbox'
                ? 'Coverdesk is using its built-in sandbox: answers are made up for practice. Enter your eligibility service’s address and API key to use it instead.'
                : 'Checks and cards are sent to the service below.'}
            </p>
            <div className="grid-2">
              <TextField id="settings-url" label="Service address" placeholder="https://eligibility.example.com" value={url} onChange={setUrl} error={errors.upstream_url} autoComplete="off" />
              <TextField
                id="settings-api-key"
                label="API key"
                type="password"
                autoComplete="off"
                placeholder={settings.api_key_set ? 'Saved — type a new one to replace it' : ''}
                value={apiKey}
                onChange={setApiKey}
                error={errors.api_key}
                hint="Stored encrypted on this computer; never shown again."
              />
            </div>
            {message('connection')}
            {connection && (
              <div data-testid="connection-result">
                <Notice tone={connection.state === 'connected' ? 'ok' : 'bad'} live>
                  <strong>{CONNECTION_WORDS[connection.state]}</strong> {connection.message}
                </Notice>
              </div>
            )}
            <div className="row">
              <Button type="submit" variant="primary">
                Save and connect
              </Button>
              {settings.mode === 'upstream' && <Button onClick={() => void save('connection', { upstream_url: null, api_key: null })}>Use the sandbox instead</Button>}
            </div>
          </form>

          <SettingForm id="settings-provider" title="Default provider" saveLabel="Save default provider" message={message('provider')} onSave={() => void save('provider', { default_provider_id: provider || null })}>
            <SelectField
              id="settings-default-provider"
              label="Provider chosen for new checks"
              placeholder="None: choose each time"
              value={provider}
              onChange={setProvider}
              options={providers.map((p) => ({ value: p.id, label: `${p.name} (NPI ${p.npi})` }))}
              error={errors.default_provider_id}
            />
          </SettingForm>

          <SettingForm
            id="settings-service-type"
            title="Default service type"
            saveLabel="Save default service type"
            message={message('service-type')}
            onSave={() => void save('service-type', { default_service_type: serviceType || null })}
          >
            <Combobox
              id="settings-default-service-type"
              label="What new checks, and the checks a discovery starts, ask about"
              placeholder="None: health benefit plan coverage"
              options={SERVICE_OPTIONS}
              filter={filterServiceOptions}
              value={serviceType}
              onChange={(value) => setServiceType(value as ServiceType)}
              error={errors.default_service_type}
              hint="The practice’s usual visit: an office visit for primary care, physical therapy for a PT clinic. It brings back that visit’s copay."
            />
            {serviceType && (
              <Button size="small" onClick={() => setServiceType('')}>
                Clear (ask about plan coverage)
              </Button>
            )}
          </SettingForm>
        </>
      )}
      <StaffPanel />
      <IdleLockPanel />
      <FeeSchedulePanel />
      <TrustedIssuersPanel />
      <BackupsPanel />
      <RecoveryPanel />
      <ReceiptSettingsPanel />

      <section className="stack" aria-labelledby="settings-integrations">
        <div>
          <h2 id="settings-integrations" className="section-title">
            Integrations
          </h2>
          <p className="muted">For IT and scanner software: where scanned cards arrive, and the local API scanner software talks to.</p>
        </div>
        {settings && (
          <SettingForm level={3} id="settings-hot-folder" title="Scanner hot folder" saveLabel="Save hot folder" message={message('hot-folder')} onSave={() => void save('hot-folder', { hot_folder: hotFolder.trim() || null })}>
            <TextField
              id="settings-hot-folder-path"
              label="Folder the scanner saves cards to"
              value={hotFolder}
              onChange={setHotFolder}
              error={errors.hot_folder}
              hint="Cards saved there appear in Intake under “Scanned cards”. Leave empty for the default folder."
            />
          </SettingForm>
        )}
        <LocalApiPanel />
        <IntegrationsPanel />
      </section>

      <ConfirmDialog
        open={switching !== null}
        title="Switch eligibility service?"
        message={switching?.message ?? ''}
        confirmLabel="Switch and send them there"
        onCancel={() => setSwitching(null)}
        onConfirm={() => {
          const confirmed = switching;
          setSwitching(null);
          if (confirmed) void save(confirmed.section, { ...confirmed.update, send_waiting_to_new_service: true });
        }}
      />
    </div>
  );
}

const CONNECTION_WORDS: Record<ConnectionTest['state'], string> = {
  connected: 'Connected.',
  wrong_key: 'Wrong API key.',
  unreachable: 'Address not reachable.',
  not_compatible: 'Not a Coverdesk-compatible service.',
  service_error: 'The service is failing right now.',
};

/** What the connection is now, from the sync worker: never "connected" beside an Offline banner. */
function ConnectionBadge({ mode, sync }: { mode: 'sandbox' | 'upstream'; sync: SyncStatus | null }) {
  if (mode === 'sandbox') return <Badge tone="warn">Sandbox mode</Badge>;
  if (sync?.worker === 'paused') return <Badge tone="bad">API key refused</Badge>;
  if (sync?.online === false) return <Badge tone="bad">Offline</Badge>;
  if (sync?.online === true) return <Badge tone="ok">Connected</Badge>;
  return <Badge tone="neutral">Not tried yet</Badge>;
}

/** One setting, saved on its own: a heading, its fields, what saving said, one button. */
function SettingForm({ id, title, saveLabel, message, onSave, children, level = 2 }: { id: string; title: string; saveLabel: string; message: ReactNode; onSave(): void; children: ReactNode; level?: 2 | 3 }) {
  const Heading = level === 2 ? 'h2' : 'h3';
  return (
    <form
      className="panel"
      aria-labelledby={id}
      onSubmit={(event) => {
        event.preventDefault();
        onSave();
      }}
    >
      <Heading id={id}>{title}</Heading>
      {children}
      {message}
      <div className="row">
        <Button type="submit" variant="primary">
          {saveLabel}
        </Button>
      </div>
    </form>
  );
}

/** The local API for scanner software: whether it runs, where, and the token it needs. */
function LocalApiPanel() {
  const bridge = useBridge();
  const queries = useQueryClient();
  const status = useBridgeQuery('localApi.status', {});
  const [shown, setShown] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [note, setNote] = useState<string | null>(null);
  const value = status.data;

  const regenerate = async () => {
    setConfirming(false);
    const result = await bridge.localApi.regenerateToken({});
    if (result.ok) {
      setBridgeData(queries, 'localApi.status', {}, result.value);
      setShown(true);
      setNote('A new token was made. Scanner software using the old one must be given this one.');
    } else setNote(result.error.message);
  };

  const copy = async () => {
    if (!value?.token) return;
    try {
      await navigator.clipboard.writeText(value.token);
      setNote('Token copied.');
    } catch {
      setShown(true);
      setNote('Copying is not allowed here: select the token and copy it by hand.');
    }
  };

  return (
    <section className="panel" aria-labelledby="settings-local-api">
      <div className="panel__header">
        <h3 id="settings-local-api">Local API for scanners</h3>
        {value && (value.state === 'running' ? <Badge tone="ok">Running</Badge> : value.state === 'stopped' ? <Badge tone="neutral">Stopped</Badge> : <Badge tone="bad">Unavailable</Badge>)}
      </div>
      {status.loading && !value ? (
        <Loading label="Reading the local API status…" />
      ) : !value ? (
        <Notice tone="warn">The local API status is not available: {status.error?.message}</Notice>
      ) : (
        <div className="stack">
          {value.message && <p>{value.message}</p>}
          <p>
            <strong>Address:</strong> <span className="mono">{value.address ?? 'not listening'}</span>
          </p>
          <div className="stack">
            <p>
              <strong>Token:</strong>{' '}
              <span className="mono" data-testid="local-api-token">
                {value.token ? (shown ? value.token : '•'.repeat(16)) : 'none'}
              </span>
            </p>
            {value.token && (
              <div className="row">
                <Button size="small" onClick={() => setShown((s) => !s)} aria-pressed={shown}>
                  {shown ? 'Hide token' : 'Show token'}
                </Button>
                <Button size="small" onClick={() => void copy()}>
                  Copy token
                </Button>
                <Button size="small" variant="danger" onClick={() => setConfirming(true)}>
                  Make a new token…
                </Button>
              </div>
            )}
          </div>
          {note && (
            <Notice tone="info" live>
              {note}
            </Notice>
          )}
        </div>
      )}
      <ConfirmDialog
        open={confirming}
        title="Make a new token?"
        message="The current token stops working at once: scanner software using it will be refused until it is given the new one."
        confirmLabel="Make a new token"
        onCancel={() => setConfirming(false)}
        onConfirm={() => void regenerate()}
      />
    </section>
  );
}
