import { RulesForm } from '../components/rules-form';

/** The organization's geofencing defaults: the rules every fence follows unless it sets its own. */
export function SettingsPage({ isAdmin }: { isAdmin: boolean }) {
  return (
    <section>
      <h1>Geofencing settings</h1>
      {!isAdmin && <p class="notice">Only administrators change the organization's settings; you can see them.</p>}
      <p>How long a device without a fix stays inside its fences (“exit when silent for”) is also how long it stays on the maps: after it, it counts as offline everywhere.</p>
      <RulesForm path="/geofencing/settings" scope="organization" readOnly={!isAdmin} />
    </section>
  );
}
