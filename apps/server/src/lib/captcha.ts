import { createHmac } from 'node:crypto';
import { ERROR_CODES } from '@store/shared';
import type { FastifyBaseLogger } from 'fastify';
import { createChallenge, randomInt, verifySolution, type Challenge, type Payload } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import { lt } from 'drizzle-orm';
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import { captchaUses } from '../db/schema/index.ts';
import { BadRequestError } from './errors.ts';

export const CAPTCHA_REQUIRED = 'Captcha required';
export const CAPTCHA_FAILED = 'Captcha verification failed';
export const CAPTCHA_CHALLENGE_PATH = '/api/captcha/challenge';
const captchaFailed = () => new BadRequestError(CAPTCHA_FAILED, ERROR_CODES.CAPTCHA_FAILED);

const ALGORITHM = 'PBKDF2/SHA-256';
const CHALLENGE_TTL_MS = 10 * 60_000;
const PRUNE_EVERY_MS = 10 * 60_000;
/**
 * Deterministic mode: the solver must find the secret counter (cost PBKDF2 rounds per try), while the
 * server checks a solution with one HMAC. normal ≈ 1 s in a browser's workers; low ≈ a few ms (tests).
 */
const DIFFICULTY = {
  normal: { cost: 2_000, counterMin: 1_000, counterMax: 2_500 },
  low: { cost: 50, counterMin: 10, counterMax: 40 },
} as const;

export interface Captcha {
  readonly provider: Config['captcha']['provider'];
  /** A new ALTCHA challenge, in the form the widget expects. */
  challenge(): Promise<Challenge>;
  /** Throws 400 'Captcha required' or 'Captcha verification failed'; resolves when the answer is good. */
  verify(answer: string | undefined | null, remoteIp?: string): Promise<void>;
}

function secret(jwtSecret: string, label: string): string {
  return createHmac('sha256', jwtSecret).update(`altcha:${label}`).digest('hex');
}

/** The widget's payload: base64 of JSON { challenge: { parameters, signature }, solution }. */
function parsePayload(answer: string): Payload | null {
  try {
    const p = JSON.parse(Buffer.from(answer, 'base64').toString('utf8')) as Payload;
    if (!p?.challenge?.parameters || typeof p.challenge.signature !== 'string' || !p.solution) return null;
    return p;
  } catch {
    return null;
  }
}

export function createCaptcha(config: Config, db: Db, log: FastifyBaseLogger): Captcha {
  const { provider } = config.captcha;
  const hmacSignatureSecret = secret(config.jwtSecret, 'signature');
  const hmacKeySignatureSecret = secret(config.jwtSecret, 'key-signature');
  let lastPrune = 0;

  async function prune(now: number) {
    if (now - lastPrune < PRUNE_EVERY_MS) return;
    lastPrune = now;
    await db.delete(captchaUses).where(lt(captchaUses.expiresAt, new Date(now)));
  }

  async function verifyAltcha(answer: string) {
    const payload = parsePayload(answer);
    if (!payload || payload.challenge.parameters.algorithm !== ALGORITHM) throw captchaFailed();
    let verified = false;
    try {
      const result = await verifySolution({
        challenge: payload.challenge,
        solution: payload.solution,
        deriveKey,
        hmacSignatureSecret,
        hmacKeySignatureSecret,
      });
      verified = result.verified;
    } catch {
      verified = false;
    }
    const expiresAt = payload.challenge.parameters.expiresAt;
    if (!verified || !expiresAt) throw captchaFailed();
    // accepted once: the signature names the challenge; a second insert finds it already there
    const now = Date.now();
    await prune(now);
    const inserted = await db
      .insert(captchaUses)
      .values({ signature: payload.challenge.signature!, expiresAt: new Date(expiresAt * 1000) })
      .onConflictDoNothing()
      .returning({ signature: captchaUses.signature });
    if (inserted.length === 0) throw captchaFailed();
  }

  async function verifyRecaptcha(answer: string, remoteIp?: string) {
    const body = new URLSearchParams({ secret: config.captcha.recaptchaSecret ?? '', response: answer });
    if (remoteIp) body.set('remoteip', remoteIp);
    let success = false;
    try {
      const res = await fetch(`${config.captcha.recaptchaApiBase}/recaptcha/api/siteverify`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body,
        signal: AbortSignal.timeout(10_000),
      });
      const data = (await res.json()) as { success?: boolean; 'error-codes'?: string[] };
      success = res.ok && data.success === true;
      if (!success) log.info({ errors: data['error-codes'] }, 'reCAPTCHA refused an answer');
    } catch (err) {
      log.warn({ err }, 'reCAPTCHA verification request failed');
    }
    if (!success) throw captchaFailed();
  }

  return {
    provider,
    async challenge() {
      const d = DIFFICULTY[config.captcha.difficulty];
      return createChallenge({
        algorithm: ALGORITHM,
        cost: d.cost,
        counter: randomInt(d.counterMax, d.counterMin),
        deriveKey,
        expiresAt: new Date(Date.now() + CHALLENGE_TTL_MS),
        hmacSignatureSecret,
        hmacKeySignatureSecret,
      });
    },
    async verify(answer, remoteIp) {
      if (provider === 'none') return;
      if (typeof answer !== 'string' || !answer.trim())
        throw new BadRequestError(CAPTCHA_REQUIRED, ERROR_CODES.CAPTCHA_REQUIRED);
      if (provider === 'recaptcha') return verifyRecaptcha(answer.trim(), remoteIp);
      return verifyAltcha(answer.trim());
    },
  };
}
