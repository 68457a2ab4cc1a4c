import Foundation
import Testing

/// Summary first, grouped: a city list where two countries were renamed
/// in a thousand rows says so in two transitions, in every format, before
/// any one change, and `--stat` says it too.
@Suite struct SummaryTransitionsTests {
    static let cities = ["cities/old.csv", "cities/new.csv", "--id", "geonameid"]

    @Test func theTextSummarySaysWhatTheChangesHaveInCommon() throws {
        let stat = try changeset(Self.cities + ["--stat"])
        #expect(stat.status == 1 && stat.stdout == """
            20 inserted, 31 deleted, 1035 updated, 0 moved, 1934 unchanged
            fields: country 993, population 59
              country: "Russia" -> "Russian Federation" (499), "Turkey" -> "Türkiye" (494)
              population: numbers changed by 1000 at most, 1000 on average (59 records)

            """, "\(stat)")
        let text = try changeset(Self.cities)
        #expect(text.stdout.hasPrefix(stat.stdout), "the report starts with what --stat says")
    }

    @Test func everyFormatCarriesTheTransitions() throws {
        let json = try changeset(Self.cities + ["--format", "json"])
        let transitions = try run("jq", ["-c", ".summary.transitions[] | [.path, .exact, (.top | map([.old, .new, .records])), .numbers]"], input: json.stdout)
        #expect(transitions == """
            ["country",true,[["Russia","Russian Federation",499],["Turkey","Türkiye",494]],null]
            ["population",true,[],{"records":59,"largest":1000,"mean":1000}]

            """, "\(transitions)")
        // The counts agree with the changes themselves.
        let russia = try run("jq", ["[.changes[] | select(.kind == \"updated\") | .fields[] | select(.path == \"country\" and .old == \"Russia\")] | length"], input: json.stdout)
        #expect(russia == "499\n")
        let markdown = try changeset(Self.cities + ["--format", "markdown"])
        #expect(markdown.stdout.contains("**Common changes**\n\n- `country`: `\"Russia\"` → `\"Russian Federation\"` (499), `\"Turkey\"` → `\"Türkiye\"` (494)\n"), "\(markdown.stdout.prefix(2000))")
        let html = try changeset(Self.cities + ["--format", "html"])
        #expect(html.stdout.contains("<li><code>country</code>: &quot;Russia&quot; -&gt; &quot;Russian Federation&quot; (499), &quot;Turkey&quot; -&gt; &quot;Türkiye&quot; (494)</li>"), "\(html.stdout.prefix(3000))")
    }
}
