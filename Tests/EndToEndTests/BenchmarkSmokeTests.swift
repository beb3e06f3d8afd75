import AccessEnablerBenchmarks
import AccessEnablerScenarios
import Foundation
import Testing

/// The benchmark with tiny iteration counts: every section and every goal is there and
/// carries numbers, and the counts that do not depend on the machine are exact. Nothing
/// here depends on how fast the machine is.
@Suite struct BenchmarkSmokeTests {
    /// A soak of a few seconds: every round signs in and out as a healthy round does, each
    /// facade call is counted, and resident memory is read at the start, at every interval
    /// and at the end. (At least one round runs however slow the machine is.)
    @Test func aShortSoakRunsHealthyRoundsAndSamplesMemory() async throws {
        let lines = NSLockedBox<[String]>()
        let result = try await Soak(duration: 2, sampleInterval: 0.5).run { line in
            lines.update { $0 = ($0 ?? []) + [line] }
        }
        #expect(result.rounds >= 1)
        #expect(result.roundsAsExpected == result.rounds)
        // setRequestor for every tenth round (a relaunch), and 15 calls a round.
        #expect(result.calls == (result.rounds + 9) / 10 + 15 * result.rounds)
        // At least the sign-in's session and profile, two authorizations, a preauthorization
        // and the logout in every round.
        #expect(result.requests >= 6 * result.rounds)
        #expect(result.samples.count >= 2)
        #expect(result.samples.allSatisfy { $0.residentBytes > 1_000_000 })
        #expect(result.samples.last?.calls == result.calls)
        #expect((lines.value ?? []).count == result.samples.count, "one line per reading")
        #expect(result.summary.contains("\(result.calls) calls"))
        #expect(result.summary.contains("resident memory:"))
    }

    @Test func quickRunReportsEverySectionAndGoalWithNumbers() async throws {
        let report = try await Benchmark(quick: true).run { _ in }
        #expect(report.sections.map(\.key) == Benchmark.measurementKeys)
        #expect(
            Benchmark.measurementKeys == [
                "roundTrips", "cpuPerFlow", "ssoLatency", "manyDevices", "sandboxThroughput", "throttled", "wanLatency",
                "waiting",
            ])
        for section in report.sections {
            #expect(!section.rows.isEmpty, "section \(section.key) has no rows")
            #expect(!section.goals.isEmpty, "section \(section.key) decides no goal")
            for row in section.rows {
                #expect(!row.figures.isEmpty, "\(section.key) / \(row.label) has no figures")
                for figure in row.figures {
                    let value = try #require(
                        figure.value, "\(section.key) / \(row.label) / \(figure.name) was not measured")
                    #expect(value.isFinite && value >= 0, "\(section.key) / \(row.label) / \(figure.name) = \(value)")
                }
            }
        }

        // Every goal of the product, each with a measured figure and a verdict.
        let goals = report.goals.map(\.goal)
        #expect(
            goals.map(\.name) == [
                "REST round trips at the minimum in every flow",
                "20 checkAuthorization calls together: decisions requests",
                "checkAuthentication, back-to-back", "checkAuthentication, interleaved",
                "partner SSO sign-in, SDK / bare libcurl", "partner SSO sign-in, CPU SDK / bare",
                "20 devices: completed and authenticated", "20 devices: sign-ins per second",
                "20 devices: half of them done by",
                "20 devices: peak memory per device",
                "sandbox on 2 keep-alive connections",
                "throttled: sign-in, authorization, second screen",
                "WAN latency: round trips within 0.25 of the minimum",
                "CPU while one request waits",
            ])
        #expect(
            goals.map(\.goal) == [
                "all 14", "= 4", "≤ 1.3", "≤ 1.3", "≤ 1.1", "≤ 1.3", "= 20", "≥ 0.8", "≤ 60 %", "≤ 32 KiB",
                "> 20000 /s",
                "0, every flow done and the control refused", "all 5", "≤ 0.002",
            ])
        for goal in goals {
            let value = try #require(goal.figure.value, "\(goal.name) was not measured")
            #expect(value.isFinite && value >= 0, "\(goal.name) = \(value)")
        }

        // Counts are exact whatever the machine: every flow makes its minimum, a
        // second-screen sign-in polls floor(N / 5) + 1 times, every simulated device signs
        // in, and the throttle refuses nothing but the control burst's one request too many.
        let roundTrips = try section("roundTrips", of: report)
        let burst = try #require(roundTrips.rows.last)
        let flows = roundTrips.rows.dropLast()
        #expect(flows.count == 14)
        for row in flows {
            #expect(figure("calls", of: row) == figure("minimum", of: row), "\(row.label)")
            #expect(row.note == nil, "\(row.label): \(row.note ?? "")")
            #expect(row.met == true, "\(row.label)")
        }
        let polls = roundTrips.rows.filter { $0.label.hasPrefix("second screen, person done after") }.map {
            figure("calls", of: $0)
        }
        #expect(polls == [1, 3, 13])
        // The provider list (configuration), the session, three polls.
        #expect(
            roundTrips.rows.first { $0.label.hasPrefix("getAuthentication via second screen") }.map {
                figure("calls", of: $0)
            } == 5)
        #expect(goals.first?.met == true)
        // setRequestor asks no configuration: a warm launch is the profiles, a cold one
        // register, token, profiles; a logout sends one request per MVPD the device holds, all at once.
        let minimums = Dictionary(
            uniqueKeysWithValues: flows.map { ($0.label, (figure("minimum", of: $0), figure("round trips", of: $0))) })
        #expect(
            minimums["setRequestor, cold (empty storage)"]?.0 == 3
                && minimums["setRequestor, cold (empty storage)"]?.1 == 3)
        #expect(
            minimums["setRequestor, warm (after relaunch)"]?.0 == 1
                && minimums["setRequestor, warm (after relaunch)"]?.1 == 1)
        #expect(
            minimums["logout with two profiles (two MVPDs)"]?.0 == 2
                && minimums["logout with two profiles (two MVPDs)"]?.1 == 1)
        // The burst: at best ⌈20 / 5⌉ = 4 decisions requests, and every call ends in its own
        // callback. How many requests it took depends on whether the engine picked the first
        // call up before the others arrived (it then leaves alone), so only the bounds are exact.
        #expect(burst.label == "20 checkAuthorization calls together")
        #expect(figure("minimum", of: burst) == 4)
        let burstCalls = try #require(figure("calls", of: burst))
        #expect((4...20).contains(burstCalls), "\(burstCalls) decisions requests for 20 calls")
        #expect(burst.note?.contains("ended in their callback") != true, "\(burst.note ?? "")")
        #expect(goals[1].met == (burstCalls == 4))

        let devices = try section("manyDevices", of: report)
        let completed = try #require(devices.rows.first { $0.label == "completed / started" })
        #expect(figure("completed", of: completed) == 20)
        #expect(figure("authenticated after", of: completed) == 20)
        #expect(completed.met == true, "\(completed.figures)")
        // The floor of the wave: the same devices signed in by the bare client, measured the same way.
        let bareWave = try #require(devices.rows.first { $0.label == "bare client wave" })
        #expect(figure("completed", of: bareWave) == 20)
        #expect(bareWave.note == nil, "\(bareWave.note ?? "")")
        #expect(bareWave.figures.map(\.name).prefix(2) == ["rate", "per device"])
        // The earlier floor, bare URLSession, beside it.
        let urlSessionWave = try #require(devices.rows.first { $0.label == "bare client wave (URLSession)" })
        #expect(figure("completed", of: urlSessionWave) == 20)
        #expect(urlSessionWave.note == nil, "\(urlSessionWave.note ?? "")")
        let finished = try #require(devices.rows.first { $0.label.hasPrefix("completed by") })
        #expect(finished.figures.map(\.name) == ["10 %", "50 %", "90 %", "100 %"])
        let times = finished.figures.compactMap(\.value)
        #expect(times == times.sorted(), "completion percentiles in order: \(times)")

        let throttled = try section("throttled", of: report)
        #expect(throttled.rows.map { figure("429s", of: $0) } == [0, 0, 0, 1])
        #expect(throttled.rows.map { figure("requests", of: $0) } == [6, 1, 18, 12])
        #expect(
            throttled.rows.allSatisfy { $0.met == true }, "\(throttled.rows.map { "\($0.label): \($0.note ?? "")" })")
        #expect(report.goals.first { $0.section == "throttled" }?.goal.met == true)

        // The WAN section: every flow there, each with its round trips and its minimum, and
        // the requests each flow makes (logout ∥ logout).
        let wan = try section("wanLatency", of: report)
        #expect(
            wan.rows.map(\.label) == [
                "setRequestor, warm", "setRequestor, cold", "partner SSO sign-in", "authorization",
                "logout with two profiles",
            ])
        #expect(wan.rows.map { figure("minimum", of: $0) } == [1, 3, 6, 1, 1])
        #expect(wan.rows.map { figure("requests", of: $0) } == [1, 3, 6, 1, 2])
        for row in wan.rows {
            let rtts = try #require(figure("RTTs", of: row), "\(row.label): no RTTs")
            let minimum = try #require(figure("minimum", of: row))
            // Latency cannot beat the delays it waited for; the goal is checked by the benchmark, not here.
            #expect(rtts >= minimum - 0.05, "\(row.label): \(rtts) round trips for a minimum of \(minimum)")
            #expect(row.note == nil, "\(row.label): \(row.note ?? "")")
        }

        let cpu = try section("cpuPerFlow", of: report)
        #expect(cpu.rows.allSatisfy { $0.note == nil }, "\(cpu.rows.compactMap(\.note))")
        // The floor rows sit in the same table, timed the same way; the check's goals are ratios to them.
        for label in ["checkAuthentication floor, back-to-back", "checkAuthentication floor, interleaved"] {
            let floor = try #require(cpu.rows.first { $0.label == label }, "no row \(label)")
            #expect(floor.figures.map(\.name) == cpu.rows[0].figures.map(\.name))
        }
        let sso = try section("ssoLatency", of: report)
        let cpuRatio = try #require(sso.rows.first { $0.label == "CPU ratio SDK / bare" })
        #expect(figure("ratio", of: cpuRatio) != nil)
        // Both bare clients, each labelled with its HTTP stack.
        for label in [
            "bare client (libcurl), by hand", "bare client (URLSession), by hand",
            "SDK over URLSessionTransport (diagnostic)",
        ] {
            let row = try #require(sso.rows.first { $0.label == label }, "no row \(label)")
            #expect(row.note == nil, "\(label): \(row.note ?? "")")
            #expect(figure("median", of: row) != nil)
        }

        // While a request waits for a server that never answers: the SDK on a new connection
        // (the goal), on a kept-alive one, on URLSessionTransport, and both bare clients.
        let waiting = try section("waiting", of: report)
        #expect(
            waiting.rows.map(\.label) == [
                "CPU while one request waits", "CPU while one request waits, kept-alive connection (diagnostic)",
                "CPU while one request waits, URLSessionTransport",
                "bare client (libcurl), one request waits on a new connection (floor)",
                "bare client (URLSession), one request waits on a new connection",
            ])
        #expect(waiting.rows.allSatisfy { $0.note == nil }, "\(waiting.rows.compactMap(\.note))")
        for row in waiting.rows {
            #expect((figure("wall", of: row) ?? 0) >= 0.45, "\(row.label): the wait lasts the timeout")
        }

        // Both renderings carry the machine, every goal and every section.
        let json = try #require(try JSONSerialization.jsonObject(with: Data(report.json.utf8)) as? [String: Any])
        #expect((json["sections"] as? [Any])?.count == 8)
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
