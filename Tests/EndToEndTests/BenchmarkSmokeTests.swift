import AccessEnablerScenarios
import AccessEnablerBenchmarks
import Foundation
import Testing

/// The benchmark with tiny iteration counts: every section and every goal is there and
/// carries numbers, and the counts that do not depend on the machine are exact. Nothing
/// here depends on how fast the machine is.
@Suite struct BenchmarkSmokeTests {
    @Test func quickRunReportsEverySectionAndGoalWithNumbers() async throws {
        let report = try await Benchmark(quick: true).run { _ in }
        #expect(report.sections.map(\.key) == Benchmark.measurementKeys)
        #expect(Benchmark.measurementKeys == ["roundTrips", "cpuPerFlow", "ssoLatency", "manyDevices", "sandboxThroughput", "throttled"])
        for section in report.sections {
            #expect(!section.rows.isEmpty, "section \(section.key) has no rows")
            #expect(!section.goals.isEmpty, "section \(section.key) decides no goal")
            for row in section.rows {
                #expect(!row.figures.isEmpty, "\(section.key) / \(row.label) has no figures")
                for figure in row.figures {
                    let value = try #require(figure.value, "\(section.key) / \(row.label) / \(figure.name) was not measured")
                    #expect(value.isFinite && value >= 0, "\(section.key) / \(row.label) / \(figure.name) = \(value)")
                }
            }
        }

        // Every goal of the product, each with a measured figure and a verdict.
        let goals = report.goals.map(\.goal)
        #expect(goals.map(\.name) == [
            "REST round trips at the minimum in every flow",
            "checkAuthentication, back-to-back", "checkAuthentication, interleaved",
            "partner SSO sign-in, SDK / bare URLSession",
            "20 devices: completed and authenticated", "20 devices: sign-ins per second", "20 devices: half of them done by",
            "20 devices: peak memory per device",
            "sandbox on 2 keep-alive connections",
            "throttled: sign-in, authorization, second screen",
        ])
        #expect(goals.map(\.goal) == ["all 13", "< 20 µs", "< 50 µs", "< 1.10", "= 20", "> 200 /s", "≤ 60 %", "< 128 KiB", "> 20000 /s", "0, every flow done and the control refused"])
        for goal in goals {
            let value = try #require(goal.figure.value, "\(goal.name) was not measured")
            #expect(value.isFinite && value >= 0, "\(goal.name) = \(value)")
        }

        // Counts are exact whatever the machine: every flow makes its minimum, a
        // second-screen sign-in polls floor(N / 5) + 1 times, every simulated device signs
        // in, and the throttle refuses nothing but the control burst's one request too many.
        let roundTrips = try section("roundTrips", of: report)
        #expect(roundTrips.rows.count == 13)
        for row in roundTrips.rows {
            #expect(figure("calls", of: row) == figure("minimum", of: row), "\(row.label)")
            #expect(row.note == nil, "\(row.label): \(row.note ?? "")")
            #expect(row.met == true, "\(row.label)")
        }
        let polls = roundTrips.rows.filter { $0.label.hasPrefix("second screen, person done after") }.map { figure("calls", of: $0) }
        #expect(polls == [1, 3, 13])
        #expect(roundTrips.rows.first { $0.label.hasPrefix("getAuthentication via second screen") }.map { figure("calls", of: $0) } == 4)
        #expect(goals.first?.met == true)

        let devices = try section("manyDevices", of: report)
        let completed = try #require(devices.rows.first { $0.label == "completed / started" })
        #expect(figure("completed", of: completed) == 20)
        #expect(figure("authenticated after", of: completed) == 20)
        #expect(completed.met == true, "\(completed.figures)")
        let finished = try #require(devices.rows.first { $0.label.hasPrefix("completed by") })
        #expect(finished.figures.map(\.name) == ["10 %", "50 %", "90 %", "100 %"])
        let times = finished.figures.compactMap(\.value)
        #expect(times == times.sorted(), "completion percentiles in order: \(times)")

        let throttled = try section("throttled", of: report)
        #expect(throttled.rows.map { figure("429s", of: $0) } == [0, 0, 0, 1])
        #expect(throttled.rows.map { figure("requests", of: $0) } == [6, 1, 18, 12])
        #expect(throttled.rows.allSatisfy { $0.met == true }, "\(throttled.rows.map { "\($0.label): \($0.note ?? "")" })")
        #expect(report.goals.last?.goal.met == true)

        let cpu = try section("cpuPerFlow", of: report)
        #expect(cpu.rows.allSatisfy { $0.note == nil }, "\(cpu.rows.compactMap(\.note))")

        // Both renderings carry the machine, every goal and every section.
        let json = try #require(try JSONSerialization.jsonObject(with: Data(report.json.utf8)) as? [String: Any])
        #expect((json["sections"] as? [Any])?.count == 6)
        let machine = try #require(json["machine"] as? [String: Any])
        #expect((machine["processors"] as? Int ?? 0) >= 1)
        #expect(machine["cpuModel"] is String)
        #expect(machine["loadAverage"] is Double || machine["loadAverage"] is Int)
        let jsonGoals = try #require(json["goals"] as? [[String: Any]])
        #expect(jsonGoals.count == goals.count)
        for goal in jsonGoals {
            #expect(goal["value"] is Double || goal["value"] is Int, "\(goal)")
            #expect(goal["met"] is Bool, "\(goal)")
            #expect(goal["goal"] is String, "\(goal)")
        }
        let table = report.table
        #expect(table.contains("Goals (") && table.contains("load"))
        for goal in goals { #expect(table.contains(goal.name)) }
        for section in report.sections { #expect(table.contains(section.title)) }
    }

    private func section(_ key: String, of report: Benchmark.Report) throws -> Benchmark.Section {
        try #require(report.sections.first { $0.key == key }, "no section \(key)")
    }

    private func figure(_ name: String, of row: Benchmark.Row) -> Double? {
        row.figures.first { $0.name == name }?.value
    }
}
