/**
 * World manufacturer identifiers of makes common in Russia. Only codes we are sure of are listed:
 * a wrong make on a check document is worse than none, so unknown codes fall back to the country
 * range in vin.ts. The country is where the plant is (an X4X BMW is assembled in Kaliningrad).
 */

export type VinMaker = {
  name: string;
  country: string;
};

const RU = 'Россия';
const DE = 'Германия';
const FR = 'Франция';
const JP = 'Япония';
const KR = 'Республика Корея';
const CN = 'Китай';
const US = 'США';
const UK = 'Великобритания';
const SE = 'Швеция';

export const VIN_MAKERS: Readonly<Record<string, VinMaker>> = {
  // Russia and the former USSR
  XTA: { name: 'LADA (АвтоВАЗ)', country: RU },
  XTT: { name: 'УАЗ', country: RU },
  XTH: { name: 'ГАЗ', country: RU },
  X96: { name: 'ГАЗ', country: RU },
  XTC: { name: 'КАМАЗ', country: RU },
  X9L: { name: 'Chevrolet Niva (GM-АвтоВАЗ)', country: RU },
  XUF: { name: 'Chevrolet / Opel (GM, Санкт-Петербург)', country: RU },
  X9F: { name: 'Ford (Форд Соллерс)', country: RU },
  Z6F: { name: 'Ford (Форд Соллерс)', country: RU },
  XW8: { name: 'Volkswagen / Škoda (Фольксваген Груп Рус)', country: RU },
  XW7: { name: 'Toyota (Тойота Мотор, Санкт-Петербург)', country: RU },
  Z8N: { name: 'Nissan (Ниссан Мэнуфэкчуринг Рус)', country: RU },
  Z94: { name: 'Hyundai / Kia (Хендэ Мотор Мануфактуринг Рус)', country: RU },
  XWE: { name: 'Kia / Hyundai (Автотор)', country: RU },
  X4X: { name: 'BMW (Автотор)', country: RU },
  X7L: { name: 'Renault (Рено Россия)', country: RU },
  X7M: { name: 'Hyundai (ТагАЗ)', country: RU },
  XWB: { name: 'Chevrolet / Ravon / Daewoo (GM Uzbekistan)', country: 'Узбекистан' },
  Y3M: { name: 'МАЗ', country: 'Беларусь' },
  Y6D: { name: 'ЗАЗ', country: 'Украина' },

  // Germany
  WBA: { name: 'BMW', country: DE },
  WBS: { name: 'BMW M', country: DE },
  WBY: { name: 'BMW i', country: DE },
  WDB: { name: 'Mercedes-Benz', country: DE },
  WDC: { name: 'Mercedes-Benz', country: DE },
  WDD: { name: 'Mercedes-Benz', country: DE },
  W1K: { name: 'Mercedes-Benz', country: DE },
  W1N: { name: 'Mercedes-Benz', country: DE },
  W1V: { name: 'Mercedes-Benz (фургоны)', country: DE },
  WVW: { name: 'Volkswagen', country: DE },
  WVG: { name: 'Volkswagen (внедорожники)', country: DE },
  WV1: { name: 'Volkswagen Коммерческие автомобили', country: DE },
  WV2: { name: 'Volkswagen Коммерческие автомобили', country: DE },
  WAU: { name: 'Audi', country: DE },
  WUA: { name: 'Audi Sport', country: DE },
  WP0: { name: 'Porsche', country: DE },
  WP1: { name: 'Porsche (внедорожники)', country: DE },
  WF0: { name: 'Ford', country: DE },
  W0L: { name: 'Opel', country: DE },
  W0V: { name: 'Opel', country: DE },
  WMW: { name: 'MINI', country: DE },
  WME: { name: 'smart', country: DE },
  WMA: { name: 'MAN', country: DE },

  // Rest of Europe
  VF1: { name: 'Renault', country: FR },
  VF3: { name: 'Peugeot', country: FR },
  VR3: { name: 'Peugeot', country: FR },
  VF7: { name: 'Citroën', country: FR },
  VNK: { name: 'Toyota', country: FR },
  VSS: { name: 'SEAT', country: 'Испания' },
  TMB: { name: 'Škoda', country: 'Чехия' },
  TMA: { name: 'Hyundai', country: 'Чехия' },
  U5Y: { name: 'Kia', country: 'Словакия' },
  UU1: { name: 'Dacia', country: 'Румыния' },
  SAL: { name: 'Land Rover', country: UK },
  SAJ: { name: 'Jaguar', country: UK },
  SJN: { name: 'Nissan', country: UK },
  SB1: { name: 'Toyota', country: UK },
  SHH: { name: 'Honda', country: UK },
  YV1: { name: 'Volvo', country: SE },
  YV4: { name: 'Volvo (внедорожники)', country: SE },
  YS3: { name: 'Saab', country: SE },
  YS2: { name: 'Scania', country: SE },
  ZFA: { name: 'Fiat', country: 'Италия' },
  ZAR: { name: 'Alfa Romeo', country: 'Италия' },
  ZFF: { name: 'Ferrari', country: 'Италия' },

  // Japan
  JTD: { name: 'Toyota', country: JP },
  JTE: { name: 'Toyota', country: JP },
  JTM: { name: 'Toyota', country: JP },
  JTN: { name: 'Toyota', country: JP },
  JT2: { name: 'Toyota', country: JP },
  JTH: { name: 'Lexus', country: JP },
  JTJ: { name: 'Lexus', country: JP },
  JN1: { name: 'Nissan', country: JP },
  JN8: { name: 'Nissan (внедорожники)', country: JP },
  JMB: { name: 'Mitsubishi', country: JP },
  JMZ: { name: 'Mazda', country: JP },
  JM1: { name: 'Mazda', country: JP },
  JHM: { name: 'Honda', country: JP },
  JF1: { name: 'Subaru', country: JP },
  JF2: { name: 'Subaru', country: JP },
  JSA: { name: 'Suzuki', country: JP },

  // Korea
  KMH: { name: 'Hyundai', country: KR },
  KNA: { name: 'Kia', country: KR },
  KND: { name: 'Kia', country: KR },
  KNE: { name: 'Kia', country: KR },
  KL1: { name: 'Chevrolet (GM Korea)', country: KR },
  KLA: { name: 'Daewoo', country: KR },
  KPT: { name: 'SsangYong', country: KR },
  KNM: { name: 'Renault Samsung', country: KR },

  // China
  LVV: { name: 'Chery', country: CN },
  LGW: { name: 'Great Wall (Haval)', country: CN },
  LB3: { name: 'Geely', country: CN },
  L6T: { name: 'Geely', country: CN },
  LS5: { name: 'Changan', country: CN },
  LJ1: { name: 'JAC', country: CN },
  LGX: { name: 'BYD', country: CN },
  LFV: { name: 'FAW-Volkswagen', country: CN },
  LSG: { name: 'SAIC-GM', country: CN },
  LBV: { name: 'BMW Brilliance', country: CN },
  LRW: { name: 'Tesla', country: CN },

  // The Americas
  '1FA': { name: 'Ford', country: US },
  '1FM': { name: 'Ford (внедорожники)', country: US },
  '1G1': { name: 'Chevrolet', country: US },
  '1HG': { name: 'Honda', country: US },
  '1C4': { name: 'Chrysler / Jeep', country: US },
  '4T1': { name: 'Toyota', country: US },
  '4JG': { name: 'Mercedes-Benz', country: US },
  '5UX': { name: 'BMW', country: US },
  '5YJ': { name: 'Tesla', country: US },
  '2T1': { name: 'Toyota', country: 'Канада' },
  '3VW': { name: 'Volkswagen', country: 'Мексика' },
  '3N1': { name: 'Nissan', country: 'Мексика' },
  '9BW': { name: 'Volkswagen', country: 'Бразилия' },
};
