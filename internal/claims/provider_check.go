package claims

// The rules of a saved provider (package practice): the same checks a
// claim applies to its billing and rendering providers, so a provider that
// was saved goes into a claim without a new problem.

// CheckBillingProvider lists the problems of p as a claim's billing
// provider (2010AA), with its contact required since the console sends it
// as the submitter's too; paths are relative to p ("/npi").
func CheckBillingProvider(p *Provider) []FieldError {
	c := &checker{form: "837D"}
	checkBillingAt(c, "", p)
	if p != nil && p.ContactInformation == nil {
		checkContact(c, "/contactInformation", nil, true)
	}
	return c.errs.Items
}

// CheckRenderingProvider lists the problems of p as a claim's rendering
// (treating) provider (2310B); a saved one needs its NPI.
func CheckRenderingProvider(p *Provider) []FieldError {
	c := &checker{form: "837D"}
	if p == nil {
		c.add("/", "is required: the treating provider, with npi, lastName and firstName")
		return c.errs.Items
	}
	c.required("/npi", p.NPI, "the treating provider's 10-digit NPI")
	checkProviderFields(c, "", p, false)
	return c.errs.Items
}
