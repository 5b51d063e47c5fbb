/**
 * The demo theme's license check (issue 13, ADR 033): `snippets/license-check.liquid` renders one deferred script tag
 * with the token (the theme setting `license_token`, written by the portal's download), the portal's URL (the theme
 * setting `license_portal_url`, written when the theme is generated), the theme version and edition; the script
 * `assets/license-check.js` asks `POST <portal>/api/licenses/validate` on a page view, verifies the answer's signature
 * with the portal's JWKS (WebCrypto Ed25519), keeps a verified answer in localStorage until its `expires_at` (verified
 * again whenever it is read back), and shows the store's admin (in the theme editor, never a shopper) a discreet notice
 * when the license is not valid. Whatever happens (no network, a slow portal, no storage, no Ed25519 in the browser),
 * it throws nothing and changes nothing else on the page.
 */
import type { Tier } from '@keyport/shared/domain/tiers';

export const LICENSE_SCRIPT_ASSET = 'license-check.js';
export const LICENSE_PORTAL_SETTING_ID = 'license_portal_url';
/** The localStorage key of a cached answer: the prefix, then the token and the domain. */
export const LICENSE_CACHE_PREFIX = 'keyport-license:';
/** How long the script waits for the portal before it gives up for this page view (a slow portal never delays more). */
export const LICENSE_CHECK_TIMEOUT_MS = 4000;

/** The notice the admin sees for each code of an answer that is not valid (shoppers never see any). */
export const LICENSE_NOTICES: Record<string, string> = {
  MALFORMED: 'The license token in Theme settings → License is not a valid token.',
  TOKEN_SUPERSEDED:
    'This license token was replaced by a newer one. Download the theme again from the customer portal, or paste the new token in Theme settings → License.',
  KEY_RELEASED: 'The license key of this token was disconnected in the customer portal.',
  EDITION_MISMATCH: 'This theme edition does not match the license of its token.',
  DOMAIN_MISMATCH:
    'This store’s domain is not one of the domains of this license. Add it in the customer portal, then update the token.',
};
const FALLBACK_NOTICE = 'This theme’s license could not be confirmed.';

/** `snippets/license-check.liquid`: rendered by layout/theme.liquid on every page. */
export function licenseSnippet(edition: Tier, version: string): string {
  return `{%- comment -%} Edition: ${edition}. License check (assets/${LICENSE_SCRIPT_ASSET}): validates the token with the customer portal; only the store's admin, in the theme editor, ever sees a notice. {%- endcomment -%}
{%- if settings.license_token == blank -%}
  {%- if request.design_mode -%}
    <div class="license-notice">Add your license token in Theme settings &rarr; License.</div>
  {%- endif -%}
{%- elsif settings.${LICENSE_PORTAL_SETTING_ID} != blank -%}
  <script src="{{ '${LICENSE_SCRIPT_ASSET}' | asset_url }}" defer data-keyport-license data-portal="{{ settings.${LICENSE_PORTAL_SETTING_ID} | escape }}" data-token="{{ settings.license_token | escape }}" data-version="${version}" data-edition="${edition}"{% if request.design_mode %} data-admin{% endif %}></script>
{%- endif -%}
`;
}

/**
 * `assets/license-check.js`: plain ES2017 with no dependencies, wrapped so that nothing it does can throw into the
 * store's page. The notice texts are inlined from LICENSE_NOTICES.
 */
export function licenseCheckScript(): string {
  return `/* Keyport license check: see snippets/license-check.liquid. */
(function () {
  'use strict';
  var NOTICES = ${JSON.stringify(LICENSE_NOTICES)};
  var FALLBACK = ${JSON.stringify(FALLBACK_NOTICE)};
  var SIGNATURE_HEADER = 'x-keyport-signature';
  var JWKS_PATH = '/.well-known/jwks.json';
  var TIMEOUT_MS = ${LICENSE_CHECK_TIMEOUT_MS};

  function run() {
    var tag = document.currentScript || document.querySelector('script[data-keyport-license]');
    if (!tag) return;
    var portal = (tag.getAttribute('data-portal') || '').replace(/\\/+$/, '');
    var token = tag.getAttribute('data-token') || '';
    var admin = tag.hasAttribute('data-admin');
    var domain = String(location.hostname).toLowerCase();
    if (!portal || !token) return;
    var cacheKey = ${JSON.stringify(LICENSE_CACHE_PREFIX)} + token + '@' + domain;

    var cached = readCache(cacheKey);
    if (!cached) {
      ask();
      return;
    }
    // A cached answer is trusted only while its signature still verifies (localStorage is the page's to change).
    verify(portal, cached.body, cached.signature)
      .then(function (verified) {
        if (verified === true) {
          show(cached.answer, admin);
          return;
        }
        removeCache(cacheKey);
        ask();
      })
      .catch(function () {
        /* Never break the store. */
      });

    function ask() {
      var controller = typeof AbortController === 'function' ? new AbortController() : null;
      var timer = setTimeout(function () {
        if (controller) controller.abort();
      }, TIMEOUT_MS);
      fetch(portal + '/api/licenses/validate', {
        method: 'POST',
        mode: 'cors',
        credentials: 'omit',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          token: token,
          domain: domain,
          theme_version: tag.getAttribute('data-version') || '',
          theme_edition: tag.getAttribute('data-edition') || '',
        }),
        signal: controller ? controller.signal : undefined,
      })
        .then(function (response) {
          if (!response.ok) return null;
          var signature = response.headers.get(SIGNATURE_HEADER);
          return response.text().then(function (body) {
            var answer = JSON.parse(body);
            if (!answer || typeof answer.valid !== 'boolean') return null;
            return verify(portal, body, signature).then(function (verified) {
              // Forged or altered on the way: ignored. Verified: kept for the next page views. Not verifiable here (no
              // Ed25519 in this browser, the JWKS unreachable): shown, as any answer of the portal, but not kept.
              if (verified === false) return null;
              if (verified === true) writeCache(cacheKey, { body: body, signature: signature });
              return answer;
            });
          });
        })
        .then(function (answer) {
          if (answer) show(answer, admin);
        })
        .catch(function () {
          /* Unreachable, slow or odd: the store goes on as it is; the next page view asks again. */
        })
        .then(function () {
          clearTimeout(timer);
        });
    }
  }

  /**
   * Whether signature (the answer's "kid=…,sig=…" header) is the portal's Ed25519 signature of exactly body:
   * true, false, or null when this browser cannot tell (no WebCrypto Ed25519, the JWKS unreachable).
   */
  function verify(portal, body, signature) {
    var match = /^kid=([^,]+),sig=([A-Za-z0-9_-]+)$/.exec(signature || '');
    if (!match) return Promise.resolve(false);
    var subtle = typeof crypto === 'object' && crypto ? crypto.subtle : null;
    if (!subtle || typeof TextEncoder !== 'function' || typeof atob !== 'function') return Promise.resolve(null);
    return fetch(portal + JWKS_PATH, { mode: 'cors', credentials: 'omit' })
      .then(function (response) {
        return response.ok ? response.json() : null;
      })
      .then(function (jwks) {
        var keys = jwks && Array.isArray(jwks.keys) ? jwks.keys : null;
        if (!keys) return null;
        var jwk = keys.filter(function (key) {
          return key && key.kid === match[1];
        })[0];
        if (!jwk) return false;
        return subtle
          .importKey('jwk', { kty: jwk.kty, crv: jwk.crv, x: jwk.x }, { name: 'Ed25519' }, false, ['verify'])
          .then(
            function (key) {
              return subtle.verify({ name: 'Ed25519' }, key, fromBase64Url(match[2]), new TextEncoder().encode(body));
            },
            function () {
              return null; // no Ed25519 in this browser
            },
          );
      })
      .catch(function () {
        return null;
      });
  }

  function fromBase64Url(text) {
    var binary = atob(text.replace(/-/g, '+').replace(/_/g, '/') + '==='.slice((text.length + 3) % 4));
    var bytes = new Uint8Array(binary.length);
    for (var i = 0; i < binary.length; i += 1) bytes[i] = binary.charCodeAt(i);
    return bytes;
  }

  /** A cached answer still within its expires_at: { answer, body, signature }; null otherwise. */
  function readCache(key) {
    try {
      var entry = JSON.parse(localStorage.getItem(key) || 'null');
      if (!entry || typeof entry.body !== 'string') return null;
      var answer = JSON.parse(entry.body);
      if (!(Date.parse(answer.expires_at) > Date.now())) {
        localStorage.removeItem(key);
        return null;
      }
      return { answer: answer, body: entry.body, signature: entry.signature };
    } catch (error) {
      return null;
    }
  }

  function removeCache(key) {
    try {
      localStorage.removeItem(key);
    } catch (error) {
      /* Storage blocked: nothing to remove. */
    }
  }

  /** Keeps the exact signed body with its signature header, so the answer can be verified again later. */
  function writeCache(key, entry) {
    try {
      localStorage.setItem(key, JSON.stringify(entry));
    } catch (error) {
      /* Storage full or blocked: the next page view asks again. */
    }
  }

  function show(answer, admin) {
    if (answer.valid || !admin || document.querySelector('[data-keyport-license-notice]')) return;
    var notice = document.createElement('div');
    notice.setAttribute('data-keyport-license-notice', answer.code);
    notice.setAttribute('role', 'status');
    notice.className = 'license-notice';
    notice.style.cssText =
      'position:fixed;left:12px;bottom:12px;z-index:2147483000;max-width:360px;padding:10px 12px;border-radius:8px;' +
      'background:#fff4e5;color:#663c00;font:13px/1.4 system-ui,sans-serif;box-shadow:0 2px 8px rgba(0,0,0,.15)';
    notice.textContent = 'Theme license: ' + (NOTICES[answer.code] || FALLBACK);
    document.body.appendChild(notice);
  }

  try {
    run();
  } catch (error) {
    /* Never break the store. */
  }
})();
`;
}
