/** Port of the e2e server (E2E_PORT lets two local runs go side by side); its SMTP sink listens 25 above. */
export const E2E_PORT = Number(process.env.E2E_PORT ?? 3100);
export const MAIL_PORT = E2E_PORT + 25;

/** The admin the e2e server ensures on start (playwright.config.ts sets ADMIN_EMAIL / ADMIN_PASSWORD). */
export const ADMIN = { email: 'admin@e2e.test', password: 'Admin-e2e-Pass1!' };
