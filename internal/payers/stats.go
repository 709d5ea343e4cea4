package payers

// SearchStats is the hosted search's stats object: how many payers
// matched, and per transaction type how many of them support it, in the
// deprecated flat shape (transactionSupport) and the current one
// (transactionSupportCounts). Both are counted from the records the API
// shows (Payer.Record).
type SearchStats struct {
	Total                    int                          `json:"total"`
	TransactionSupport       map[string]SupportStatsItem  `json:"transactionSupport"`
	TransactionSupportCounts map[string]SupportCountsItem `json:"transactionSupportCounts"`
}

// SupportStatsItem is TransactionSupportStatsItem: the three values are
// mutually exclusive.
type SupportStatsItem struct {
	EnrollmentRequired int `json:"enrollmentRequired"`
	NotSupported       int `json:"notSupported"`
	Supported          int `json:"supported"`
}

// SupportCountsItem is TransactionSupportCountsItem.
type SupportCountsItem struct {
	NotSupported struct {
		Total int `json:"total"`
	} `json:"notSupported"`
	Supported struct {
		EnrollmentNotRequired int `json:"enrollmentNotRequired"`
		EnrollmentRequired    int `json:"enrollmentRequired"`
		Total                 int `json:"total"`
	} `json:"supported"`
}

// Stats counts the hits.
func Stats(hits []Hit) SearchStats {
	s := SearchStats{Total: len(hits), TransactionSupport: map[string]SupportStatsItem{},
		TransactionSupportCounts: map[string]SupportCountsItem{}}
	for _, t := range txTypes {
		var flat SupportStatsItem
		var counts SupportCountsItem
		for _, h := range hits {
			switch h.Payer.apiSupport(t.Key) {
			case Supported:
				flat.Supported++
				counts.Supported.EnrollmentNotRequired++
			case EnrollmentRequired:
				flat.EnrollmentRequired++
				counts.Supported.EnrollmentRequired++
			default:
				flat.NotSupported++
				counts.NotSupported.Total++
			}
		}
		counts.Supported.Total = counts.Supported.EnrollmentNotRequired + counts.Supported.EnrollmentRequired
		s.TransactionSupport[t.Key], s.TransactionSupportCounts[t.Key] = flat, counts
	}
	return s
}
