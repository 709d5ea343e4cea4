package partners

import (
	"encoding/json"
	"testing"

	"github.com/clearhouse/clearhouse/internal/store"
)

// FuzzCheckDocument: any input decodes or is refused with problems, and
// checking a decoded document against an empty account never panics.
func FuzzCheckDocument(f *testing.F) {
	seed, _ := json.Marshal(TestSetup([]MockPayer{{ID: "52133", Name: "UnitedHealthcare Dental"}, {ID: "MOCKDOWN", Name: "Mock dental payer"}}))
	f.Add(seed)
	f.Add([]byte(`{"profiles":[{"profileId":"a","profileType":"local","interchangeQualifier":"ZZ","interchangeId":"A1"}],
	 "connections":[{"connectionId":"c","connectionType":"SFTP","settings":{"host":"h","port":70000,"username":"u"},"secrets":{"password":null}}],
	 "partnerships":[{"partnershipId":"p","localProfileId":"a","partnerProfileId":"a","inboundTransactions":[{"transactionSetIdentifier":"835","guideId":"x","fragments":{"enabled":true,"batchSize":-1}}]}]}`))
	f.Add([]byte(`{"profiles":{"a":1},"x":[null]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		doc, err := DecodeDocument(data)
		if err != nil {
			if _, ok := err.(*ValidationError); !ok {
				t.Fatalf("DecodeDocument error %T: %v", err, err)
			}
			return
		}
		for _, mode := range []string{store.ModeTest, store.ModeProduction} {
			empty := &world{accountID: "acct", mode: mode, profiles: map[string]store.Profile{},
				connections: map[string]store.Connection{}, partnerships: map[string]store.Partnership{},
				settings: map[string]store.TransactionSetting{}}
			desired(empty, doc, ApplyOptions{AccountID: "acct", Mode: mode})
		}
	})
}
