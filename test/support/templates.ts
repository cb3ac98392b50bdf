// The databases global-setup.ts makes once per run and each test clones (CREATE DATABASE … TEMPLATE).

export const TEMPLATE_DATABASE = "poolpatrol_template";
/** The migrated template with mock/ seeded, as `seedFolder(db, MOCK_DIR)` leaves it. */
export const MOCK_TEMPLATE_DATABASE = "poolpatrol_mock_template";
