import { checkRange, type FieldType, simpleType } from './field-type.js';

const coordinate = (limit: number) => ({
  min: { type: 'number', minimum: -limit, maximum: limit, default: -limit, description: `Lowest value (default ${-limit}).` },
  max: { type: 'number', minimum: -limit, maximum: limit, default: limit, description: `Highest value (default ${limit}).` },
  decimals: { type: 'integer', minimum: 0, maximum: 10, default: 4, description: 'Fraction digits (default 4).' },
});

/** Places and organisations. */
export const PLACE_TYPES: FieldType[] = [
  simpleType('city', 'City name in the locale.', (f) => f.location.city()),
  simpleType('country', 'Country name in the locale.', (f) => f.location.country()),
  {
    name: 'country_code',
    description: 'ISO 3166-1 country code.',
    options: {
      variant: { type: 'string', enum: ['alpha-2', 'alpha-3'], default: 'alpha-2', description: 'alpha-2 (default) or alpha-3.' },
    },
    create: (f, o) => () => f.location.countryCode(o.variant as 'alpha-2' | 'alpha-3'),
  },
  simpleType('state', 'State, region or province of the locale.', (f) => f.location.state()),
  simpleType('street_address', 'Street and building number.', (f) => f.location.streetAddress()),
  simpleType('secondary_address', 'Apartment or suite.', (f) => f.location.secondaryAddress()),
  simpleType('zip_code', 'Postal code in the locale format.', (f) => f.location.zipCode()),
  {
    name: 'latitude',
    column: 'real',
    description: 'Latitude in degrees (number).',
    options: coordinate(90),
    create: (f, o) => {
      checkRange(o.min as number, o.max as number);
      return () => f.location.latitude({ min: o.min as number, max: o.max as number, precision: o.decimals as number });
    },
  },
  {
    name: 'longitude',
    column: 'real',
    description: 'Longitude in degrees (number).',
    options: coordinate(180),
    create: (f, o) => {
      checkRange(o.min as number, o.max as number);
      return () => f.location.longitude({ min: o.min as number, max: o.max as number, precision: o.decimals as number });
    },
  },
  simpleType('time_zone', 'IANA time zone name.', (f) => f.location.timeZone()),
  simpleType('company', 'Company name.', (f) => f.company.name()),
  simpleType('catch_phrase', 'Company catch phrase.', (f) => f.company.catchPhrase()),
  simpleType('department', 'Shop department.', (f) => f.commerce.department()),
  simpleType('product_name', 'Product name.', (f) => f.commerce.productName()),
  simpleType('vehicle', 'Vehicle make and model.', (f) => f.vehicle.vehicle()),
  simpleType('vin', 'Vehicle identification number.', (f) => f.vehicle.vin()),
];
