import ChangesetKit
import Testing

/// The verdict a library user gets for a comparison, as `changeset` decides its exit status.
@Suite struct DiffVerdictTests {
    static func summary(deleted: Int, updated: Int, oldCount: Int) -> Summary {
        var summary = Summary()
        summary.deleted = deleted
        summary.updated = updated
        summary.changed = deleted + updated
        summary.oldCount = oldCount
        summary.unchanged = oldCount - deleted - updated
        return summary
    }

    @Test func withoutAssertionsAComparisonPassesWhenNothingDiffers() {
        #expect(DiffVerdict(Summary(), assertions: []).passes)
        let changed = DiffVerdict(Self.summary(deleted: 1, updated: 0, oldCount: 10), assertions: [])
        #expect(!changed.passes && changed.failedAssertions.isEmpty)
    }

    @Test func withAssertionsEveryOneMustHoldAndTheFailedAreNamedInOrder() throws {
        let summary = Self.summary(deleted: 1, updated: 3, oldCount: 10)
        let held = try ["deleted <= 1", "updated < 50%"].map(Assertion.init(parsing:))
        #expect(DiffVerdict(summary, assertions: held).passes, "differences alone do not fail assertions that hold")
        let mixed = try ["deleted == 0", "updated < 50%", "changed < 4"].map(Assertion.init(parsing:))
        let verdict = DiffVerdict(summary, assertions: mixed)
        #expect(!verdict.passes)
        #expect(verdict.failedAssertions.map(\.text) == ["deleted == 0", "changed < 4"])
        #expect(verdict.failedAssertions[0].actualDescription(summary) == "1")
    }
}
