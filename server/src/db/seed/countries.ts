/** Reference data for address forms (GetCountriesAndStates). */
export const COUNTRIES: { code: string; name: string; states: [string, string][] }[] = [
  {
    code: 'US', name: 'United States',
    states: [
      ['AL', 'Alabama'], ['AK', 'Alaska'], ['AZ', 'Arizona'], ['AR', 'Arkansas'], ['CA', 'California'], ['CO', 'Colorado'],
      ['CT', 'Connecticut'], ['DE', 'Delaware'], ['DC', 'District of Columbia'], ['FL', 'Florida'], ['GA', 'Georgia'],
      ['HI', 'Hawaii'], ['ID', 'Idaho'], ['IL', 'Illinois'], ['IN', 'Indiana'], ['IA', 'Iowa'], ['KS', 'Kansas'],
      ['KY', 'Kentucky'], ['LA', 'Louisiana'], ['ME', 'Maine'], ['MD', 'Maryland'], ['MA', 'Massachusetts'],
      ['MI', 'Michigan'], ['MN', 'Minnesota'], ['MS', 'Mississippi'], ['MO', 'Missouri'], ['MT', 'Montana'],
      ['NE', 'Nebraska'], ['NV', 'Nevada'], ['NH', 'New Hampshire'], ['NJ', 'New Jersey'], ['NM', 'New Mexico'],
      ['NY', 'New York'], ['NC', 'North Carolina'], ['ND', 'North Dakota'], ['OH', 'Ohio'], ['OK', 'Oklahoma'],
      ['OR', 'Oregon'], ['PA', 'Pennsylvania'], ['RI', 'Rhode Island'], ['SC', 'South Carolina'], ['SD', 'South Dakota'],
      ['TN', 'Tennessee'], ['TX', 'Texas'], ['UT', 'Utah'], ['VT', 'Vermont'], ['VA', 'Virginia'], ['WA', 'Washington'],
      ['WV', 'West Virginia'], ['WI', 'Wisconsin'], ['WY', 'Wyoming'],
    ],
  },
  {
    code: 'CA', name: 'Canada',
    states: [
      ['AB', 'Alberta'], ['BC', 'British Columbia'], ['MB', 'Manitoba'], ['NB', 'New Brunswick'], ['NL', 'Newfoundland and Labrador'],
      ['NS', 'Nova Scotia'], ['NT', 'Northwest Territories'], ['NU', 'Nunavut'], ['ON', 'Ontario'], ['PE', 'Prince Edward Island'],
      ['QC', 'Quebec'], ['SK', 'Saskatchewan'], ['YT', 'Yukon'],
    ],
  },
  {
    code: 'MX', name: 'Mexico',
    states: [['CMX', 'Ciudad de México'], ['JAL', 'Jalisco'], ['NLE', 'Nuevo León'], ['BCN', 'Baja California'], ['CHH', 'Chihuahua'], ['MEX', 'Estado de México']],
  },
  {
    code: 'AU', name: 'Australia',
    states: [['ACT', 'Australian Capital Territory'], ['NSW', 'New South Wales'], ['NT', 'Northern Territory'], ['QLD', 'Queensland'],
      ['SA', 'South Australia'], ['TAS', 'Tasmania'], ['VIC', 'Victoria'], ['WA', 'Western Australia']],
  },
  {
    code: 'IN', name: 'India',
    states: [['DL', 'Delhi'], ['GJ', 'Gujarat'], ['KA', 'Karnataka'], ['MH', 'Maharashtra'], ['TN', 'Tamil Nadu'], ['TG', 'Telangana'], ['UP', 'Uttar Pradesh'], ['WB', 'West Bengal']],
  },
  { code: 'GB', name: 'United Kingdom', states: [['ENG', 'England'], ['NIR', 'Northern Ireland'], ['SCT', 'Scotland'], ['WLS', 'Wales']] },
  { code: 'DE', name: 'Germany', states: [['BY', 'Bavaria'], ['BE', 'Berlin'], ['HH', 'Hamburg'], ['HE', 'Hesse'], ['NW', 'North Rhine-Westphalia']] },
  { code: 'FR', name: 'France', states: [] },
  { code: 'NL', name: 'Netherlands', states: [] },
  { code: 'CN', name: 'China', states: [] },
];
