package eligibility

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"testing"
)

// encodingJSON is what the answer was before jsonw: json.Encoder with HTML
// characters unescaped, newline-terminated.
func encodingJSON(t *testing.T, v any) []byte {
	t.Helper()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func sameAnswerJSON(t *testing.T, r *Response) {
	t.Helper()
	got, buf := encodeShared(r)
	defer bodyBuffers.Put(buf)
	if want := encodingJSON(t, r); !bytes.Equal(got, want) {
		i := 0
		for i < len(got) && i < len(want) && got[i] == want[i] {
			i++
		}
		t.Fatalf("jsonw and encoding/json differ at byte %d:\njsonw:         %.200s\nencoding/json: %.200s", i, got[i:], want[i:])
	}
}

// TestResponseJSONMatchesEncodingJSON holds jsonw to encoding/json, byte
// for byte: the answer of every published mock request through the whole
// check, every corpus 271 mapped, and Responses with every field set
// (strings that need escaping, empty and nil lists and maps, the dates'
// own MarshalJSON), so a field added to Response's types without its line
// in encode.go fails here.
func TestResponseJSONMatchesEncodingJSON(t *testing.T) {
	t.Run("mock answers", func(t *testing.T) {
		f := newFixture(t, 0)
		for _, m := range mockRequests(t) {
			res, err := f.svc.Check(context.Background(), testKey, m.req)
			if err != nil || res.Response == nil {
				t.Fatalf("%s: %v %+v", m.mock.Name, err, res.Body())
			}
			if want := encodingJSON(t, res.Response); !bytes.Equal(res.JSON, want) {
				t.Errorf("%s: the answer is not what encoding/json writes:\n%s\nwant:\n%s", m.mock.Name, res.JSON, want)
			}
			sameAnswerJSON(t, res.Response)
		}
	})
	t.Run("corpus", func(t *testing.T) {
		for _, path := range corpus271s(t) {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			r, err := Map271(data)
			if err != nil {
				t.Fatal(err)
			}
			r.X12 = string(data)
			sameAnswerJSON(t, r)
		}
	})
	strange := []string{"plain", "", `quote " backslash \ slash /`, "<b>&amp;</b>", "tab\tnl\ncr\rbs\bff\f\x00\x1f\x7f",
		"é ü 漢字 🙂", "\u2028\u2029", "bad \xff\xfe utf8 \xc3", "\xe2\x80"}
	for i, s := range strange {
		t.Run(fmt.Sprintf("every field %d", i), func(t *testing.T) {
			var r Response
			fill(reflect.ValueOf(&r).Elem(), s, 0)
			sameAnswerJSON(t, &r)
		})
	}
	t.Run("escapes at every offset", func(t *testing.T) {
		// The 8-byte fast path of appendString: each character that needs
		// a look at each place of a 40-byte string.
		plain := "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmn"
		for _, c := range []string{"\"", "\\", "\x00", "\x1f", "\n", " ", "~", "\x7f", "\x80", "\xff", "é", "\u2028", "<", "&"} {
			for i := 0; i <= len(plain); i++ {
				s := plain[:i] + c + plain[i:]
				sameAnswerJSON(t, &Response{X12: s, PlanInformation: map[string]string{s: s}, Errors: []AAAError{{Description: s[:i]}}})
			}
		}
	})
	t.Run("empty", func(t *testing.T) {
		sameAnswerJSON(t, &Response{})
		sameAnswerJSON(t, &Response{Errors: []AAAError{}, PlanInformation: map[string]string{}, Meta: &Meta{},
			BenefitsInformation: []BenefitsInformation{{BenefitsDateInformation: &BenefitsDateInformation{}}}})
		sameAnswerJSON(t, &Response{BenefitsInformation: []BenefitsInformation{{BenefitsDateInformation: &BenefitsDateInformation{
			Dates:      map[string]string{"admissions": "kept: no admissions", "discharges": "replaced", "zz": "<&>", "a": ""},
			Discharges: []DatePeriod{{}, {StartDate: "20240101", EndDate: "<x>"}},
		}}}})
	})
}

// fill sets every field of v: strings to s (with the field's name, so
// misplaced fields show), lists to two items, maps to three keys, pointers
// to filled values.
func fill(v reflect.Value, s string, depth int) {
	switch v.Kind() {
	case reflect.String:
		v.SetString(s)
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			f := v.Field(i)
			if f.Kind() == reflect.String {
				f.SetString(v.Type().Field(i).Name + ":" + s)
				continue
			}
			fill(f, s, depth+1)
		}
	case reflect.Pointer:
		if depth > 6 {
			return
		}
		v.Set(reflect.New(v.Type().Elem()))
		fill(v.Elem(), s, depth+1)
	case reflect.Slice:
		v.Set(reflect.MakeSlice(v.Type(), 2, 2))
		fill(v.Index(0), s, depth+1)
		fill(v.Index(1), s+"2", depth+1)
	case reflect.Map:
		m := reflect.MakeMap(v.Type())
		for _, k := range []string{"zeta", s, "alpha<&>", "admissions"} {
			m.SetMapIndex(reflect.ValueOf(k), reflect.ValueOf(k+"="+s))
		}
		v.Set(m)
	default:
		panic("fill: unexpected kind " + v.Kind().String())
	}
}

// BenchmarkAnswerJSON encodes the answer to the first published mock
// request: jsonw beside encoding/json.
func BenchmarkAnswerJSON(b *testing.B) {
	f := newFixture(&testing.T{}, 0)
	m := mockRequests(&testing.T{})[0]
	res, err := f.svc.Check(context.Background(), testKey, m.req)
	if err != nil || res.Response == nil {
		b.Fatal(err)
	}
	b.Run("jsonw", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_, buf := encodeShared(res.Response)
			bodyBuffers.Put(buf)
		}
	})
	b.Run("encoding-json", func(b *testing.B) {
		b.ReportAllocs()
		var buf bytes.Buffer
		for b.Loop() {
			buf.Reset()
			enc := json.NewEncoder(&buf)
			enc.SetEscapeHTML(false)
			enc.Encode(res.Response)
		}
	})
}
