/** Business constants and limits (delays, cooldowns, sizes), shared by the server and the web app. */
export const STORE_NAME = 'Store';
export const CURRENCY = 'USD';
export const TAX_RATE_PERCENT = 15;
export const PAGE_SIZE = 24;
export const TOP_PRODUCTS = 5;
export const PAYMENT_METHOD = 'PayPal';

export const GRID_BATCH = [
  { maxWidth: 400, size: 8 },
  { maxWidth: 768, size: 12 },
  { maxWidth: 1200, size: 16 },
] as const;
export const GRID_BATCH_DEFAULT = 24;
export const GRID_SCROLL_LOAD_RATIO = 0.75;
export const GRID_RECYCLE_DELAY_MS = 275;
export const GRID_RECYCLE_CAP = 3;

export const CARD_NAME_CUT_OVER = 40;
export const CARD_NAME_CUT_TO = 60;
export const META_DESCRIPTION_MAX = 160;

export const LOGIN_DEBOUNCE_MS = 1500;
export const EMAIL_VALIDATION_DELAY_MS = 300;
export const PASSWORD_HINT_DELAY_MS = 1500;
export const FILTER_DEBOUNCE_MS = 300;
export const LONG_PRESS_MS = 600;

export const TOAST_MS = {
  guestCheckoutError: 6000,
  orderPlaced: 3000,
  profile: 3000,
  shippingError: 6000,
  productSaved: 2500,
  /** An admin list's update or delete went through (orders marked delivered, a user deleted). */
  adminAction: 3000,
} as const;

export const PROFILE_COOLDOWN_S = 10;
export const PROFILE_CAPTCHA_FROM_COUNT = 2;
export const RESEND_COOLDOWN_S = 40;
export const RESEND_COOLDOWN_KEY = 'register_resend_cooldown_endsAt';

export const PAYPAL_ATTEMPTS = 3;
export const PAYPAL_READY_WAIT_MS = 15000;

export const RATING_LABELS = ['Poor', 'Fair', 'Good', 'Very Good', 'Excellent'] as const;

export const LIMITS = {
  email: 254,
  username: 30,
  registerName: 50,
  shippingName: 64,
  addressLine: 100,
  city: 64,
  state: 32,
  postalCode: 10,
  country: 56,
  contactName: 80,
  contactSubject: 150,
  contactMessage: 2500,
  supportMessage: 2500,
  reviewComment: 2000,
  passwordMin: 8,
  passwordMax: 128,
  productName: 200,
  searchMin: 32,
  searchMax: 256,
  searchDefault: 128,
  uploadBytes: 5 * 1024 * 1024,
} as const;

export const MOBILE_BREAKPOINT = 991;
export const SMALL_BREAKPOINT = 480;
export const SUGGESTIONS_MAX = 50;
export const MESSAGE_LIST_MAX_HEIGHT = 400;

export const SUPPORTED_COUNTRIES = ['US', 'CA', 'GB', 'AU'] as const;
export const US_STATES = [
  'AL',
  'AK',
  'AZ',
  'AR',
  'CA',
  'CO',
  'CT',
  'DE',
  'DC',
  'FL',
  'GA',
  'HI',
  'ID',
  'IL',
  'IN',
  'IA',
  'KS',
  'KY',
  'LA',
  'ME',
  'MD',
  'MA',
  'MI',
  'MN',
  'MS',
  'MO',
  'MT',
  'NE',
  'NV',
  'NH',
  'NJ',
  'NM',
  'NY',
  'NC',
  'ND',
  'OH',
  'OK',
  'OR',
  'PA',
  'PR',
  'RI',
  'SC',
  'SD',
  'TN',
  'TX',
  'UT',
  'VT',
  'VI',
  'VA',
  'WA',
  'WV',
  'WI',
  'WY',
] as const;

/** Widths (px) every uploaded or generated image is stored at, as WebP. */
export const IMAGE_WIDTHS = [320, 640, 1024] as const;

/** `sizes` of the home carousel's images: the web app renders them, the server preloads the first. */
export const TOP_SLIDE_SIZES = '(max-width: 767px) 60vw, 420px';
