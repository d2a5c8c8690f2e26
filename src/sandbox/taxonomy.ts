// Sectors, subsectors, industries and subindustries of the synthetic universe. Identifiers are
// upper-case text without spaces, like the real TECHNOLOGYSEC and BEVERAGESI.

export interface Classification {
  readonly id: string;
  readonly name: string;
}

export interface IndustryDef extends Classification {
  readonly subindustries: readonly Classification[];
}

export interface SectorDef extends Classification {
  readonly subsectors: readonly Classification[];
  readonly industries: readonly IndustryDef[];
}

const c = (id: string, name: string): Classification => ({ id, name });
const ind = (id: string, name: string, ...subindustries: Classification[]): IndustryDef => ({
  id,
  name,
  subindustries,
});

export const SECTORS: readonly SectorDef[] = [
  {
    ...c("TECHNOLOGYSEC", "Technology"),
    subsectors: [
      c("SOFTWARESERVICESSUB", "Software & Services"),
      c("TECHHARDWARESUB", "Technology Hardware"),
    ],
    industries: [
      ind("SOFTWAREI", "Software", c("APPLICATIONSOFTWARESUBI", "Application Software")),
      ind("SEMICONDUCTORSI", "Semiconductors"),
      ind("TECHHARDWAREI", "Technology Hardware & Equipment", c("CONSUMERDEVICESSUBI", "Consumer Devices")),
      ind("ITSERVICESI", "IT Services"),
    ],
  },
  {
    ...c("HEALTHCARESEC", "Health Care"),
    subsectors: [c("PHARMASUB", "Pharmaceuticals & Biotechnology")],
    industries: [
      ind("PHARMACEUTICALSI", "Pharmaceuticals"),
      ind("BIOTECHNOLOGYI", "Biotechnology", c("GENETHERAPYSUBI", "Gene Therapy")),
      ind("MEDICALDEVICESI", "Medical Devices"),
    ],
  },
  {
    ...c("FINANCIALSSEC", "Financials"),
    subsectors: [c("BANKSSUB", "Banks"), c("DIVERSIFIEDFINANCIALSSUB", "Diversified Financials")],
    industries: [
      ind("BANKSI", "Banks", c("REGIONALBANKSSUBI", "Regional Banks")),
      ind("INSURANCEI", "Insurance"),
      ind("CAPITALMARKETSI", "Capital Markets"),
    ],
  },
  {
    ...c("CONSUMERSTAPLESSEC", "Consumer Staples"),
    subsectors: [c("FOODBEVERAGESUB", "Food, Beverage & Tobacco")],
    industries: [
      ind("BEVERAGESI", "Beverages", c("SOFTDRINKSSUBI", "Soft Drinks"), c("DISTILLERSSUBI", "Distillers")),
      ind("FOODPRODUCTSI", "Food Products"),
      ind("HOUSEHOLDPRODUCTSI", "Household Products"),
    ],
  },
  {
    ...c("CONSUMERDISCRETIONARYSEC", "Consumer Discretionary"),
    subsectors: [c("RETAILINGSUB", "Retailing")],
    industries: [
      ind("RETAILI", "Specialty Retail"),
      ind("AUTOMOBILESI", "Automobiles"),
      ind("MEDIAENTERTAINMENTI", "Media & Entertainment", c("STREAMINGSUBI", "Streaming")),
    ],
  },
  {
    ...c("INDUSTRIALSSEC", "Industrials"),
    subsectors: [],
    industries: [
      ind("MACHINERYI", "Machinery"),
      ind("AEROSPACEI", "Aerospace & Defense"),
      ind("AIRLINESI", "Airlines"),
    ],
  },
  {
    ...c("ENERGYSEC", "Energy"),
    subsectors: [c("OILGASSUB", "Oil & Gas")],
    industries: [
      ind("OILGASI", "Oil, Gas & Consumable Fuels", c("REFININGSUBI", "Refining")),
      ind("ENERGYSERVICESI", "Energy Services"),
    ],
  },
  {
    ...c("MATERIALSSEC", "Materials"),
    subsectors: [],
    industries: [
      ind("CHEMICALSI", "Chemicals"),
      ind("METALSMININGI", "Metals & Mining", c("STEELSUBI", "Steel")),
    ],
  },
  {
    ...c("UTILITIESSEC", "Utilities"),
    subsectors: [],
    industries: [ind("ELECTRICUTILITIESI", "Electric Utilities"), ind("WATERUTILITIESI", "Water Utilities")],
  },
  {
    ...c("REALESTATESEC", "Real Estate"),
    subsectors: [c("REITSSUB", "Real Estate Investment Trusts")],
    industries: [ind("REITSI", "Equity REITs"), ind("REALESTATESERVICESI", "Real Estate Services")],
  },
  {
    ...c("TELECOMSEC", "Telecommunication Services"),
    subsectors: [],
    industries: [
      ind("TELECOMI", "Diversified Telecommunication"),
      ind("WIRELESSI", "Wireless Telecommunication"),
    ],
  },
];

export const INDUSTRIES: readonly (IndustryDef & { readonly sector: SectorDef })[] = SECTORS.flatMap((s) =>
  s.industries.map((i) => ({ ...i, sector: s })),
);
