package eligibility

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestRawX12DecodesLikeAString: decoding in place gives what encoding/json
// gives for a string, escapes and surrogate pairs included.
func TestRawX12DecodesLikeAString(t *testing.T) {
	for _, in := range []string{
		`""`, `"ST*270*0001~"`, `"a\"b\\c\/d\be\ff\ng\rh\ti"`, `"\u00e9\u00C9 \u20ac"`,
		`"\ud83d\ude00 emoji"`, `"lone \ud83d surrogate"`, `"\ud83d\u0041"`, `"caf\u00e9~NM1*IL~"`,
	} {
		checkRawX12Decode(t, in)
	}
}

func FuzzRawX12(f *testing.F) {
	for _, s := range []string{"ST*270*0001~", "é\n\"\\", "\U0001F600", "\x00\x1f"} {
		b, _ := json.Marshal(s)
		f.Add(string(b))
	}
	f.Add(`"\ud800\udc00\ud800"`)
	f.Fuzz(func(t *testing.T, in string) {
		var want string
		if json.Unmarshal([]byte(in), &want) != nil {
			return // not a JSON string: encoding/json refuses it before RawX12 sees it
		}
		checkRawX12Decode(t, in)
	})
}

func checkRawX12Decode(t *testing.T, in string) {
	t.Helper()
	var want string
	if err := json.Unmarshal([]byte(in), &want); err != nil {
		t.Fatalf("%s: %v", in, err)
	}
	var got struct {
		X12 RawX12 `json:"x12"`
	}
	if err := json.Unmarshal([]byte(`{"x12":`+in+`}`), &got); err != nil {
		t.Fatalf("%s: %v", in, err)
	}
	if !utf8.Valid(got.X12) {
		return // kept as sent, where encoding/json would write U+FFFD; the X12 character check refuses it
	}
	if string(got.X12) != want {
		t.Errorf("%s: got %q, want %q", in, got.X12, want)
	}
}

// TestRawInquirySegmentCap: a body of tiny segments is refused at the cap
// with a message that says why, without reading the rest.
func TestRawInquirySegmentCap(t *testing.T) {
	x := "ST*270*0001~" + strings.Repeat("X~", MaxRawSegments)
	_, fe := readRawInquiry([]byte(x))
	if fe == nil || fe.Path != "/x12" || !strings.Contains(fe.Message, "more than 1000 segments") {
		t.Fatalf("%d segments: %+v", MaxRawSegments+1, fe)
	}
	_, fe = readRawInquiry([]byte("ST*270*0001~NM1*" + strings.Repeat("A", MaxRawSegmentBytes) + "~SE*2*0001~"))
	if fe == nil || fe.Path != "/x12" {
		t.Fatalf("a segment of %d bytes: %+v", MaxRawSegmentBytes+4, fe)
	}
}
