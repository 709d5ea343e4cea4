package api_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/clearhouse/clearhouse/internal/api"
)

const billingPath = "/2024-04-01/practice/billing-providers"

const sunrise = `{"organizationName":"Sunrise Family Dental","npi":"1999999992","employerId":"123456789","taxonomyCode":"1223G0001X",
	"address":{"address1":"123 Main St","city":"Denver","state":"CO","postalCode":"802383000"},
	"contactInformation":{"name":"Billing Office","phoneNumber":"3035550100"}}`

type providerJSON struct {
	ID               string `json:"id"`
	Default          bool   `json:"default"`
	OrganizationName string `json:"organizationName"`
}

// TestPracticeProviders: the claims' rules refuse a provider a claim would
// refuse, every problem at once; the first provider is the default, a new
// default takes over, and deleting the default hands it on.
func TestPracticeProviders(t *testing.T) {
	t.Parallel()
	f := newFixture(t, api.Options{})
	save := func(method, path, body string, want int) providerJSON {
		t.Helper()
		rec := f.do(method, path, f.keyA, strings.NewReader(body))
		if rec.Code != want {
			t.Fatalf("%s %s: %d, want %d: %s", method, path, rec.Code, want, rec.Body)
		}
		var p providerJSON
		json.Unmarshal(rec.Body.Bytes(), &p)
		return p
	}
	for _, tc := range []struct {
		name, path, body string
		fields           []string
	}{
		{"empty billing", billingPath, `{}`, []string{"/npi", "/employerId", "/address", "/organizationName", "/contactInformation"}},
		{"ZIP without +4, bad NPI", billingPath, strings.Replace(strings.Replace(sunrise, "802383000", "80238", 1), "1999999992", "1999999993", 1),
			[]string{"/address/postalCode", "/npi"}},
		{"unknown field", billingPath, `{"nip":"1999999992"}`, []string{"/nip"}},
		{"rendering without NPI", "/2024-04-01/practice/rendering-providers", `{"lastName":"Smith"}`, []string{"/npi"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := f.do("POST", tc.path, f.keyA, strings.NewReader(tc.body))
			var e struct {
				Code      string
				FieldList []struct{ Path string }
			}
			json.Unmarshal(rec.Body.Bytes(), &e)
			var got []string
			for _, fl := range e.FieldList {
				got = append(got, fl.Path)
			}
			if rec.Code != 400 || strings.Join(got, " ") != strings.Join(tc.fields, " ") {
				t.Errorf("%d %v, want 400 %v: %s", rec.Code, got, tc.fields, rec.Body)
			}
		})
	}

	first := save("POST", billingPath, sunrise, 201)
	second := save("POST", billingPath, strings.Replace(sunrise, "Sunrise", "Sunset", 1), 201)
	if !first.Default || second.Default {
		t.Errorf("first default=%v, second default=%v: the first provider is the default", first.Default, second.Default)
	}
	save("PUT", billingPath+"/"+second.ID, strings.Replace(sunrise, "{", `{"default":true,`, 1), 200)
	var list struct{ Items []providerJSON }
	json.Unmarshal(f.do("GET", billingPath, f.keyA, nil).Body.Bytes(), &list)
	if len(list.Items) != 2 || list.Items[0].ID != second.ID || !list.Items[0].Default || list.Items[1].Default {
		t.Errorf("after the new default: %+v", list.Items)
	}
	if rec := f.do("DELETE", billingPath+"/"+second.ID, f.keyA, nil); rec.Code != 204 {
		t.Fatalf("delete: %d %s", rec.Code, rec.Body)
	}
	if got := save("GET", billingPath+"/"+first.ID, "", 200); !got.Default {
		t.Errorf("the default was deleted; the one left is not the default: %+v", got)
	}
	save("GET", billingPath+"/"+second.ID, "", 404)
	// The production key of another account sees none of them.
	json.Unmarshal(f.do("GET", billingPath, f.keyB, nil).Body.Bytes(), &list)
	if len(list.Items) != 0 {
		t.Errorf("another account lists %+v", list.Items)
	}
}
