package guide_test

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/clearhouse/clearhouse/x12"
	"github.com/clearhouse/clearhouse/x12/guide"
)

// The envelope and header element names are the hosted service's: ST and
// BHT as the API contract's 837P sample writes them, SE as its samples,
// ISA/GS/GE/IEA as the 005010 data element dictionary (and the hosted
// service's X12 JSON) names them.
var hostedKeys = map[string][]string{
	"interchangeHeader": {"authorization_information_qualifier_01", "authorization_information_02",
		"security_information_qualifier_03", "security_information_04", "interchange_id_qualifier_05",
		"interchange_sender_id_06", "interchange_id_qualifier_07", "interchange_receiver_id_08", "interchange_date_09",
		"interchange_time_10", "repetition_separator_11", "interchange_control_version_number_code_12",
		"interchange_control_number_13", "acknowledgment_requested_code_14", "interchange_usage_indicator_code_15",
		"component_element_separator_16"},
	"groupHeader": {"functional_identifier_code_01", "application_senders_code_02", "application_receivers_code_03",
		"date_04", "time_05", "group_control_number_06", "responsible_agency_code_07", "version_release_industry_identifier_code_08"},
	"groupTrailer":               {"number_of_transaction_sets_included_01", "group_control_number_02"},
	"interchangeTrailer":         {"number_of_included_functional_groups_01", "interchange_control_number_02"},
	"transaction_set_header_ST":  {"transaction_set_identifier_code_01", "transaction_set_control_number_02", "implementation_guide_version_name_03"},
	"transaction_set_trailer_SE": {"number_of_included_segments_01", "transaction_set_control_number_02"},
	// The contract's 837P sample; 837D and 837I share the segment.
	"837 beginning_of_hierarchical_transaction_BHT": {"hierarchical_structure_code_01", "transaction_set_purpose_code_02",
		"originator_application_transaction_identifier_03", "transaction_set_creation_date_04",
		"transaction_set_creation_time_05", "claim_or_encounter_identifier_06"},
}

func TestEnvelopeAndHeaderNamesAreTheHostedOnes(t *testing.T) {
	t.Parallel()
	for _, tc := range goldenInputs {
		t.Run(tc.name, func(t *testing.T) {
			var out bytes.Buffer
			if err := guide.Translate(&out, bytes.NewReader(goldenInput(t, tc.input)), guide.TranslateOptions{
				Reader: []x12.ReaderOption{x12.WithDelimiters(x12.DefaultDelimiters)}}); err != nil {
				t.Fatal(err)
			}
			var doc struct {
				Interchanges []map[string]json.RawMessage
			}
			if err := json.Unmarshal(out.Bytes(), &doc); err != nil {
				t.Fatal(err)
			}
			for _, ic := range doc.Interchanges {
				checkKeys(t, "interchangeHeader", ic["interchangeHeader"])
				checkKeys(t, "interchangeTrailer", ic["interchangeTrailer"])
				var groups []map[string]json.RawMessage
				json.Unmarshal(ic["functionalGroups"], &groups)
				for _, g := range groups {
					checkKeys(t, "groupHeader", g["groupHeader"])
					checkKeys(t, "groupTrailer", g["groupTrailer"])
					var sets []struct{ Heading, Summary map[string]json.RawMessage }
					json.Unmarshal(g["transactionSets"], &sets)
					for _, s := range sets {
						checkKeys(t, "transaction_set_header_ST", s.Heading["transaction_set_header_ST"])
						checkKeys(t, "transaction_set_trailer_SE", s.Summary["transaction_set_trailer_SE"])
						if strings.HasPrefix(tc.name, "837") {
							checkKeys(t, "837 beginning_of_hierarchical_transaction_BHT", s.Heading["beginning_of_hierarchical_transaction_BHT"])
						}
					}
				}
			}
		})
	}
}

// checkKeys fails when the object has a key the hosted service does not
// write there (an element left empty in the file is simply absent).
func checkKeys(t *testing.T, what string, raw json.RawMessage) {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil || len(m) == 0 {
		t.Errorf("%s: missing or not an object: %.80s", what, raw)
		return
	}
	for k := range m {
		if !slices.Contains(hostedKeys[what], k) {
			t.Errorf("%s has %q, not one of the hosted names %v", what, k, hostedKeys[what])
		}
	}
}
