package eligibility

// Example is a ready-made request a person can try, with what it shows:
// test mode's published mock requests, which the console's form offers.
// The composition root lists them (internal/mockpayer's); this package
// never imports the mock.
type Example struct {
	// Name is a stable identifier ("uhc-dependent", "uhc-aaa-42").
	Name string
	// Scenario describes what the example demonstrates, PayerName is the
	// directory name of its payer and Outcome summarises the answer
	// ("active coverage", "payer rejection AAA 42 at Loop 2100A", ...).
	Scenario, PayerName, Outcome string
	Request                      Request
}
