import Testing
@testable import ChangesetEngine

/// The engine keeps element positions in 32 bits: a list past
/// `Differ.elementLimit` is refused with a typed error, not a trap. The
/// boundary is checked against small limits (a real one would need 2^31
/// elements).
@Suite struct EngineElementLimitTests {
    @Test func countsUpToTheLimitPassAndOnePastThrowsNamingTheSide() throws {
        try Differ.checkCounts(old: 3, new: 3, limit: 3)
        #expect(throws: TooManyElementsError(oldCount: 4, newCount: 0, limit: 3)) { try Differ.checkCounts(old: 4, new: 0, limit: 3) }
        #expect(throws: TooManyElementsError(oldCount: 2, newCount: 4, limit: 3)) { try Differ.checkCounts(old: 2, new: 4, limit: 3) }
        #expect(TooManyElementsError(oldCount: 2, newCount: 4, limit: 3).description
                == "the new list holds 4 elements; the engine diffs lists of at most 3")
        #expect(TooManyElementsError(oldCount: 5, newCount: 1, limit: 3).description
                == "the old list holds 5 elements; the engine diffs lists of at most 3")
    }

    /// Elements of every section count, not those of one.
    @Test func matchingByIDThrowsForListsPastTheLimit() throws {
        let old = [ListSection(id: "a", elements: items("x y")), ListSection(id: "b", elements: items("z"))]
        let new = [ListSection(id: "a", elements: items("y"))]
        #expect(try Differ.matchByID(old: old, new: new, limit: 3) == [1])
        #expect(throws: TooManyElementsError(oldCount: 3, newCount: 1, limit: 2)) { try Differ.matchByID(old: old, new: new, limit: 2) }
    }

    /// The limit keeps the largest position + 1 (the matcher's "none" is 0) within `Int32`.
    @Test func theLimitLeavesRoomForAPositionPlusOne() {
        #expect(Differ.elementLimit + 1 <= Int(Int32.max))
        #expect(Differ.elementLimit == Int(Int32.max) - 1)
    }
}
