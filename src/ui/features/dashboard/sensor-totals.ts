/**
 * SPEC §2's "reporting / total sensors" label of one reading. A device can count sensors the MCU
 * has not registered (wired, never scanned in): the total is then never below the reporting
 * count ("1/0" would say fewer sensors exist than report), and the unregistered ones are named so
 * the farmer knows to register them.
 */
export function sensorCountLabel(reporting: number, registered: number): { text: string; unregistered: number } {
  const total = Math.max(reporting, registered);
  return { text: `${reporting}/${total} sensors`, unregistered: Math.max(0, reporting - registered) };
}
