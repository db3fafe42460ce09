// ISO 4217 minor-unit digits of every currency a price can be in, from the currency-codes package
// (2.2.0, ISO list of 2024-06-25): the codes with a numeric minor unit, except the X codes. Written out
// here because every route validates money and the package's full list (names, numbers, countries)
// cost 18 kB of each bundle to parse at cold start; test/unit/currency-digits.test.ts holds this table
// to the package's, so an update of the package that changes a currency fails until it is copied here.

/** Codes by minor-unit digits. */
export const CODES_BY_MINOR_UNIT_DIGITS: Readonly<Record<0 | 2 | 3 | 4, string>> = {
  0: 'BIF CLP DJF GNF ISK JPY KMF KRW PYG RWF UGX UYI VND VUV',
  2: 'AED AFN ALL AMD ANG AOA ARS AUD AWG AZN BAM BBD BDT BGN BMD BND BOB BOV BRL BSD BTN BWP BYN BZD CAD CDF CHE CHF CHW CNY COP COU CRC CUC CUP CVE CZK DKK DOP DZD EGP ERN ETB EUR FJD FKP GBP GEL GHS GIP GMD GTQ GYD HKD HNL HTG HUF IDR ILS INR IRR JMD KES KGS KHR KPW KYD KZT LAK LBP LKR LRD LSL MAD MDL MGA MKD MMK MNT MOP MRU MUR MVR MWK MXN MXV MYR MZN NAD NGN NIO NOK NPR NZD PAB PEN PGK PHP PKR PLN QAR RON RSD RUB SAR SBD SCR SDG SEK SGD SHP SLE SOS SRD SSP STN SVC SYP SZL THB TJS TMT TOP TRY TTD TWD TZS UAH USD USN UYU UZS VED VES WST YER ZAR ZMW ZWG',
  3: 'BHD IQD JOD KWD LYD OMR TND',
  4: 'CLF UYW',
};
