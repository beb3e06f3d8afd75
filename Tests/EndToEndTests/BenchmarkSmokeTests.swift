import AccessEnablerScenarios
import AccessEnablerBenchmarks
import Foundation
import Testing

/// The benchmark with tiny iteration counts: every section is there and carries numbers.
/// Nothing here depends on how fast the machine is.
@Suite struct BenchmarkSmokeTests {
    @Test func quickRunReportsEverySectionWithNumbers() async throws {
        let report = try await Benchmark(quick: true).run { _ in }
        #expect(report.sections.map(\.key) == ["roundTrips", "cpuPerFlow", "ssoLatency", "manyDevices", "sandboxThroughput"])
        for section in report.sections {
            #expect(!section.rows.isEmpty, "section \(section.key) has no rows")
            for row in section.rows {
                #expect(!row.figures.isEmpty, "\(section.key) / \(row.label) has no figures")
                for figure in row.figures {
                    let value = try #require(figure.value, "\(section.key) / \(row.label) / \(figure.name) was not measured")
                    #expect(value.isFinite && value >= 0, "\(section.key) / \(row.label) / \(figure.name) = \(value)")
                }
            }
        }

        // Counts are exact whatever the machine: every flow makes its minimum, and every
        // simulated device signs in.
        let roundTrips = try #require(report.sections.first { $0.key == "roundTrips" })
        #expect(roundTrips.rows.count == 9)
        for row in roundTrips.rows {
            #expect(row.figures.first { $0.name == "calls" }?.value == row.figures.first { $0.name == "minimum" }?.value, "\(row.label)")
            #expect(row.note == nil, "\(row.label): \(row.note ?? "")")
        }
        let devices = try #require(report.sections.first { $0.key == "manyDevices" })
        #expect(devices.rows.first?.met == true, "\(devices.rows.first?.figures ?? [])")
        let cpu = try #require(report.sections.first { $0.key == "cpuPerFlow" })
        #expect(cpu.rows.allSatisfy { $0.note == nil }, "\(cpu.rows.compactMap(\.note))")

        // Both renderings carry every section.
        let json = try #require(try JSONSerialization.jsonObject(with: Data(report.json.utf8)) as? [String: Any])
        #expect((json["sections"] as? [Any])?.count == 5)
        for section in report.sections { #expect(report.table.contains(section.title)) }
    }
}
