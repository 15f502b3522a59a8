/**
 * Why the server refused a request, precisely: an error answer's `reason` (and a field error's),
 * beside its coarse `code` and its English `message`. Stable names the app translates (namespace
 * `errors`, `reasons.<reason>`), with the values the text needs in `params`. A plain list without
 * the schema library: the page imports it.
 */
export const ERROR_REASONS = [
  // Accounts and sessions
  "session_ended",
  "invalid_credentials",
  "username_taken",
  "email_taken",
  "own_account_only",
  "too_many_attempts",
  "too_many_sign_in_failures",
  "server_busy",
  // Farm teams
  "not_a_member",
  "role_cannot",
  "account_is_owner",
  "invitation_unknown",
  "invitation_expired",
  "invitation_revoked",
  "rota_not_callable",
  // What a path or body names and is not there (or is another account's)
  "farm_not_found",
  "mcu_not_found",
  "controller_not_found",
  "sensor_not_found",
  "profile_not_found",
  "link_not_found",
  "recipe_not_found",
  "batch_not_found",
  "harvest_not_found",
  "alarm_not_found",
  "member_not_found",
  "invitation_not_found",
  "client_not_found",
  "device_not_found",
  // Devices
  "farm_has_mcus",
  "mac_taken",
  "mac_other_kind",
  "mac_other_type",
  "device_identity_fixed",
  "claim_refused",
  "too_many_claims",
  // Alarms, batches, recipes, history
  "alarm_resolved",
  "mcu_in_batch",
  "mcus_in_batch",
  "batch_running",
  "batch_changed",
  "batch_ended",
  "phase_not_confirmable",
  "batch_on_hold",
  "batch_not_on_hold",
  "phase_too_long",
  "nothing_due",
  "recipe_has_batches",
  "range_too_busy",
  "exports_running",
  "exports_busy",
  // A switch or a settings refresh sent over the socket (its acknowledgement's reason)
  "unknown_device",
  "device_offline",
  "device_no_answer",
  "device_refused",
  "gateway_down",
  "server_stopping",
  "too_many_requests",
  "command_not_sent",
  "settings_not_sent",
  "not_connected",
  "no_server_answer",
  "bad_server_answer",
  // A field's value (a field error's reason; the first one's is the answer's too)
  "required",
  "too_short",
  "too_long",
  "bad_character",
  "invalid_email",
  "invalid_mobile",
  "choose_country",
  "passwords_differ",
  "confirm_password",
  "invalid_mac",
  "claim_code_required",
  "claim_code_format",
  "whole_number",
  "not_a_number",
  "out_of_range",
  "invalid_time_zone",
  "unknown_field",
  "invalid_language",
  "invalid_digits",
  "start_too_late",
] as const;
export type ErrorReason = (typeof ERROR_REASONS)[number];

/** The values a reason's text names ("mac", "count", "max" …): plain, so a text can be written with them in any language. */
export type ErrorParams = Record<string, string | number>;

export const isErrorReason = (x: unknown): x is ErrorReason => (ERROR_REASONS as readonly unknown[]).includes(x);
