import type { Config } from '../../config';
import { createEcbExchangeRates } from './ecb-adapter';
import type { ExchangeRates } from './port';
import { createSandboxExchangeRates } from './sandbox-adapter';

/** The ECB for EXCHANGE_RATES_ADAPTER=ecb, else the sandbox's fixed rates. */
export function createExchangeRates(config: Pick<Config, 'exchangeRates'>): ExchangeRates {
  return config.exchangeRates.kind === 'ecb'
    ? createEcbExchangeRates({ baseUrl: config.exchangeRates.baseUrl, timeoutMs: config.exchangeRates.timeoutMs })
    : createSandboxExchangeRates();
}
