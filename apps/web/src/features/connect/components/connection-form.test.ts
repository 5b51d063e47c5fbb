import { describe, expect, it } from 'vitest';
import { checkDomainFields } from './connection-form';

const empty = { main: '', myshopify: '', secondary: '' };

describe('checkDomainFields (§5 edit panel, one message under each field)', () => {
  it.each([
    ['nothing at all', empty, { main: 'Please enter at least one domain' }],
    ["only 'None'", { main: 'None', myshopify: ' none ', secondary: '' }, { main: 'Please enter at least one domain' }],
    ['a bad website', { ...empty, main: 'intranet.local' }, { main: 'Please enter a valid domain (intranet.local)' }],
    [
      'a bad platform domain',
      { ...empty, myshopify: '-x-' },
      { myshopify: 'Please enter a valid Shopify store domain (-x-.myshopify.com)' },
    ],
    [
      'a bad secondary beside a good website',
      { ...empty, main: 'harbor-goods.com', secondary: 'x.invalid' },
      { secondary: 'Please enter a valid domain (x.invalid)' },
    ],
    [
      'two bad fields',
      { main: 'foo.localhost', myshopify: 'bad_name!', secondary: '' },
      {
        main: 'Please enter a valid domain (foo.localhost)',
        myshopify: 'Please enter a valid Shopify store domain (bad_name!.myshopify.com)',
      },
    ],
  ])('%s', (_case, values, errors) => {
    expect(checkDomainFields(values)).toEqual({ ok: false, errors });
  });

  it('normalises every field and gives the conversion notice of the field that was converted', () => {
    expect(
      checkDomainFields({
        main: 'https://Shop.Harbor-Goods.co.uk/',
        myshopify: 'Harbor-Goods',
        secondary: 'www.second-brand.com',
      }),
    ).toEqual({
      ok: true,
      normalised: {
        main: 'harbor-goods.co.uk',
        myshopify: 'harbor-goods.myshopify.com',
        secondary: 'second-brand.com',
      },
      notices: {
        main: 'Converted "shop.harbor-goods.co.uk" to "harbor-goods.co.uk". Both domains will be whitelisted.',
        secondary: 'Converted "www.second-brand.com" to "second-brand.com". Both domains will be whitelisted.',
      },
    });
  });
});
