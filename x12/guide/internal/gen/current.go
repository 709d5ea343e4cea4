package gen

import (
	"slices"
	"strings"

	"github.com/clearhouse/clearhouse/x12/guide/internal/spec"
)

// snapshotAsOf is the date of the imsweb/pyx12 codes.xml lists we still
// ship for want of a current public source (their <eff_dte> marks).
const snapshotAsOf = "2014-11-01"

// listsCheckedOn is the day the current lists below were last compared
// with their sources. Change it whenever a list here is brought up to date.
const listsCheckedOn = "2026-11-23"

// currentList replaces a 2014 codes.xml list with one kept up to date.
type currentList struct {
	source string
	// codes returns the current list, given the 2014 one.
	codes func(snapshot []string) []string
}

var currentLists = map[string]currentList{
	"pos": {
		source: "CMS Place of Service Code Set (code source 237); latest additions 27 Outreach Site/Street and 66 PACE Center (2023); same codes as internal/eligibility/codes/places_of_service.tsv",
		codes:  func([]string) []string { return placesOfService },
	},
	"states": {
		source: "USPS state, territory and military (AA, AE, AP) abbreviations and Canada Post province codes (code source 22); NF and PQ replaced by NL and QC, NU and PW added",
		codes:  func([]string) []string { return statesAndProvinces },
	},
	"country": {
		source: "ISO 3166-1 alpha-2 country codes (code source 5): 249 codes, none assigned since SS (2011)",
		codes:  currentCountries,
	},
	"currency": {
		source: "ISO 4217 active currency codes, Table A.1 (code source 5)",
		codes:  func([]string) []string { return isoCurrencies },
	},
}

// placesOfService is the CMS Place of Service code set.
var placesOfService = []string{
	"01", "02", "03", "04", "05", "06", "07", "08", "09", "10",
	"11", "12", "13", "14", "15", "16", "17", "18", "19", "20",
	"21", "22", "23", "24", "25", "26", "27",
	"31", "32", "33", "34", "41", "42",
	"49", "50", "51", "52", "53", "54", "55", "56", "57", "58",
	"60", "61", "62", "65", "66", "71", "72", "81", "99",
}

var statesAndProvinces = []string{
	// US states and the District of Columbia.
	"AK", "AL", "AR", "AZ", "CA", "CO", "CT", "DC", "DE", "FL", "GA", "HI", "IA", "ID", "IL", "IN", "KS", "KY",
	"LA", "MA", "MD", "ME", "MI", "MN", "MO", "MS", "MT", "NC", "ND", "NE", "NH", "NJ", "NM", "NV", "NY", "OH",
	"OK", "OR", "PA", "RI", "SC", "SD", "TN", "TX", "UT", "VA", "VT", "WA", "WI", "WV", "WY",
	// US territories and freely associated states with USPS codes.
	"AS", "FM", "GU", "MH", "MP", "PR", "PW", "VI",
	// Armed forces.
	"AA", "AE", "AP",
	// Canadian provinces and territories.
	"AB", "BC", "MB", "NB", "NL", "NS", "NT", "NU", "ON", "PE", "QC", "SK", "YT",
}

// isoCurrencies is the ISO 4217 list of active codes (Table A.1),
// including fund and precious-metal codes; HRK (2023), ZWL (2024) and ANG
// (2025) are withdrawn, SLE, VED, ZWG and XCG added.
var isoCurrencies = strings.Fields(`
AED AFN ALL AMD AOA ARS AUD AWG AZN BAM BBD BDT BHD BIF BMD BND BOB BOV BRL BSD BTN BWP BYN BZD
CAD CDF CHE CHF CHW CLF CLP CNY COP COU CRC CUP CVE CZK DJF DKK DOP DZD EGP ERN ETB EUR FJD FKP
GBP GEL GHS GIP GMD GNF GTQ GYD HKD HNL HTG HUF IDR ILS INR IQD IRR ISK JMD JOD JPY KES KGS KHR
KMF KPW KRW KWD KYD KZT LAK LBP LKR LRD LSL LYD MAD MDL MGA MKD MMK MNT MOP MRU MUR MVR MWK MXN
MXV MYR MZN NAD NGN NIO NOK NPR NZD OMR PAB PEN PGK PHP PKR PLN PYG QAR RON RSD RUB RWF SAR SBD
SCR SDG SEK SGD SHP SLE SOS SRD SSP STN SVC SYP SZL THB TJS TMT TND TOP TRY TTD TWD TZS UAH UGX
USD USN UYI UYU UYW UZS VED VES VND VUV WST XAF XAG XAU XBA XBB XBC XBD XCD XCG XDR XOF XPD XPF
XPT XSU XTS XUA XXX YER ZAR ZMW ZWG`)

// countryChanges bring the 2014 ISO 3166-1 list up to date: codes withdrawn
// (TP became TL in 2002, YU and AN were split) and codes assigned since.
var (
	countriesWithdrawn = []string{"AN", "TP", "YU"}
	countriesAdded     = []string{"AX", "BL", "BQ", "CW", "GG", "IM", "JE", "ME", "MF", "RS", "SS", "SX", "TL"}
)

func currentCountries(old []string) []string {
	out := slices.DeleteFunc(slices.Clone(old), func(c string) bool { return slices.Contains(countriesWithdrawn, c) })
	for _, c := range countriesAdded {
		if !slices.Contains(out, c) {
			out = append(out, c)
		}
	}
	slices.Sort(out)
	return out
}

// applyCurrent swaps in the current codes of l when we keep them, and dates
// the list either way.
func applyCurrent(l *spec.CodeList) {
	cur, ok := currentLists[l.ID]
	if !ok {
		l.AsOf = snapshotAsOf
		l.Source = "imsweb/x12-parser codes.xml (pyx12 lists of about " + snapshotAsOf[:4] + "); no current public list in data form"
		return
	}
	l.Codes = cur.codes(l.Codes)
	l.AsOf = listsCheckedOn
	l.Source = cur.source
	l.Advisory = l.ID == "pos" // CMS adds codes between our updates
	l.Note = ""
	if l.Advisory {
		l.Note = "CMS adds place of service codes from time to time: a code outside this list is a warning"
	}
}
