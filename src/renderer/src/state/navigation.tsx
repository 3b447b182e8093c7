import { createContext, useContext } from 'react';

/** Where the desk is. Screens that are about one patient carry the patient. */
export type Route =
  | { screen: 'today' }
  | { screen: 'intake'; patientId?: string }
  | { screen: 'eligibility'; patientId?: string; cardId?: string; checkId?: string }
  | { screen: 'discovery'; patientId?: string; cardId?: string }
  | { screen: 'sync' }
  | { screen: 'settings' }
  | { screen: 'audit' }
  | { screen: 'schedule' }
  | { screen: 'end_of_day' };

export type ScreenName = Route['screen'];

export const SCREENS: { screen: ScreenName; label: string; key: string }[] = [
  { screen: 'today', label: 'Today', key: '1' },
  { screen: 'intake', label: 'Intake', key: '2' },
  { screen: 'eligibility', label: 'Eligibility', key: '3' },
  { screen: 'discovery', label: 'Discovery', key: '4' },
  { screen: 'sync', label: 'Sync', key: '5' },
  { screen: 'settings', label: 'Settings', key: '6' },
  { screen: 'audit', label: 'Audit log', key: '7' },
  { screen: 'schedule', label: 'Schedule', key: '8' },
  { screen: 'end_of_day', label: 'End of day', key: '9' },
];

export interface Navigation {
  route: Route;
  navigate(route: Route): void;
}

export const NavigationContext = createContext<Navigation>({ route: { screen: 'today' }, navigate: () => undefined });

export function useNavigation(): Navigation {
  return useContext(NavigationContext);
}
