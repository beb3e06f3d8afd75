import AccessEnabler
import AccessEnablerScenarios
import Foundation

extension Benchmark {
    /// One figure in a report row: a name, a value and its unit.
    public struct Figure: Sendable, Equatable {
        /// What the figure is (`"calls"`, `"median CPU"`).
        public var name: String
        /// The value measured; `nil` when it could not be measured.
        public var value: Double?
        /// The unit (`"µs"`, `"/s"`, `"KiB"`, `""`).
        public var unit: String

        /// Creates a figure.
        public init(_ name: String, _ value: Double?, _ unit: String = "") {
            self.name = name
            self.value = value
            self.unit = unit
        }
    }

    /// One line of a section: what was measured, the figures, and the goal it is held against.
    public struct Row: Sendable, Equatable {
        /// What the row measures (a flow, a condition).
        public var label: String
        /// The figures, in display order.
        public var figures: [Figure]
        /// The goal in words (`"= 3"`, `"< 20 µs"`), or `nil` when the row has none.
        public var goal: String?
        /// Whether the goal was met; `nil` when the row has no goal.
        public var met: Bool?
        /// A short remark (an outcome that went wrong, what the figure includes).
        public var note: String?

        /// Creates a row.
        public init(_ label: String, figures: [Figure], goal: String? = nil, met: Bool? = nil, note: String? = nil) {
            self.label = label
            self.figures = figures
            self.goal = goal
            self.met = met
            self.note = note
        }
    }

    /// One of the product's goals as the summary lists it: what it is, the figure measured,
    /// the target, and whether it was met.
    public struct Goal: Sendable, Equatable {
        /// What the goal is about (`"checkAuthentication, back-to-back"`).
        public var name: String
        /// The figure held against the target.
        public var figure: Figure
        /// The target in words (`"< 20 µs"`).
        public var goal: String
        /// Whether the target was met.
        public var met: Bool

        /// Creates a goal.
        public init(_ name: String, _ figure: Figure, goal: String, met: Bool) {
            self.name = name
            self.figure = figure
            self.goal = goal
            self.met = met
        }
    }

    /// One measurement.
    public struct Section: Sendable, Equatable {
        /// A stable key for machine readers (`"roundTrips"`, `"cpuPerFlow"`, …).
        public var key: String
        /// The heading shown in the table.
        public var title: String
        /// The rows.
        public var rows: [Row]
        /// Sentences a reader needs to interpret the figures.
        public var notes: [String]
        /// The product's goals this measurement decides, for the summary.
        public var goals: [Goal]

        /// Creates a section.
        public init(key: String, title: String, rows: [Row], notes: [String] = [], goals: [Goal] = []) {
            self.key = key
            self.title = title
            self.rows = rows
            self.notes = notes
            self.goals = goals
        }
    }

    /// The figures measured, with the machine they were measured on.
    public struct Report: Sendable {
        /// Where the benchmark ran (read when the run started).
        public var machine: Machine
        /// Every section, in the order the command prints them.
        public var sections: [Section]

        /// Creates a report.
        public init(machine: Machine, sections: [Section]) {
            self.machine = machine
            self.sections = sections
        }

        /// Every section's goals, in section order, with the key of the section that measured each.
        public var goals: [(section: String, goal: Goal)] {
            sections.flatMap { section in section.goals.map { (section.key, $0) } }
        }

        /// The report as an aligned text table: the machine, the goals, then one block per section.
        public var table: String { BenchmarkTableRenderer.render(self) }

        /// The report as one JSON document: `machine`, `goals`, `sections`.
        public var json: String {
            BenchmarkJSON.object([
                ("machine", machine.jsonValue),
                (
                    "goals",
                    .array(
                        goals.map { entry in
                            .object([
                                ("section", .string(entry.section)),
                                ("name", .string(entry.goal.name)),
                                ("figure", .string(entry.goal.figure.name)),
                                ("value", entry.goal.figure.value.map { $0.isFinite ? .number($0) : .null } ?? .null),
                                ("unit", .string(entry.goal.figure.unit)),
                                ("goal", .string(entry.goal.goal)),
                                ("met", .bool(entry.goal.met)),
                            ])
                        })
                ),
                ("sections", .array(sections.map(\.jsonValue))),
            ]).text
        }
    }
}

extension Benchmark.Section {
    var jsonValue: BenchmarkJSON {
        .object([
            ("key", .string(key)),
            ("title", .string(title)),
            ("rows", .array(rows.map(\.jsonValue))),
            ("notes", .array(notes.map(BenchmarkJSON.string))),
        ])
    }
}

extension Benchmark.Row {
    var jsonValue: BenchmarkJSON {
        var fields: [(String, BenchmarkJSON)] = [("label", .string(label))]
        fields.append(
            (
                "figures",
                .array(
                    figures.map { figure in
                        .object([
                            ("name", .string(figure.name)),
                            ("value", figure.value.map { $0.isFinite ? .number($0) : .null } ?? .null),
                            ("unit", .string(figure.unit)),
                        ])
                    })
            ))
        fields.append(("goal", goal.map(BenchmarkJSON.string) ?? .null))
        fields.append(("met", met.map(BenchmarkJSON.bool) ?? .null))
        fields.append(("note", note.map(BenchmarkJSON.string) ?? .null))
        return .object(fields)
    }
}

/// Lays a report out as plain text: a machine line, the goals, then per section a heading,
/// a table and the section's notes. Rows that share their figures get one column per
/// figure; a section whose rows measure different things lists each row's figures inline.
enum BenchmarkTableRenderer {
    static func render(_ report: Benchmark.Report) -> String {
        var out = "AccessEnabler benchmark — \(report.machine.summary)\n"
        let goals = report.goals
        if !goals.isEmpty {
            let met = goals.filter(\.goal.met).count
            out += "\nGoals (\(met) of \(goals.count) met)\n"
            out += layout(
                [["goal", "measured", "target", "met"]]
                    + goals.map { entry in
                        [
                            entry.goal.name, "\(entry.goal.figure.name) \(format(entry.goal.figure))", entry.goal.goal,
                            entry.goal.met ? "met" : "NOT MET",
                        ]
                    })
        }
        for section in report.sections {
            out += "\n\(section.title)\n"
            out += table(section.rows)
            for note in section.notes { out += "  • \(note)\n" }
        }
        return out
    }

    private static func table(_ rows: [Benchmark.Row]) -> String {
        let nameLists = rows.map { $0.figures.map(\.name) }
        let shared = Set(nameLists).count <= 1
        var lines: [[String]]
        if shared {
            let figureNames = nameLists.first ?? []
            lines = [["flow / measure"] + figureNames + ["goal", "met", "note"]]
            for row in rows {
                lines.append(
                    [row.label] + row.figures.map(format) + [
                        row.goal ?? "", row.met.map { $0 ? "met" : "NOT MET" } ?? "", row.note ?? "",
                    ])
            }
        } else {
            lines = [["measure", "figures", "goal", "met", "note"]]
            for row in rows {
                let figures = row.figures.map { "\($0.name) \(format($0))" }.joined(separator: ", ")
                lines.append([
                    row.label, figures, row.goal ?? "", row.met.map { $0 ? "met" : "NOT MET" } ?? "", row.note ?? "",
                ])
            }
        }
        return layout(lines)
    }

    /// Aligned columns, the first line as a header underlined with dashes; the last column
    /// is not padded.
    private static func layout(_ lines: [[String]]) -> String {
        guard let header = lines.first else { return "" }
        var widths = Array(repeating: 0, count: header.count)
        for line in lines {
            for (index, cell) in line.enumerated() where index < widths.count {
                widths[index] = max(widths[index], cell.count)
            }
        }
        var out = ""
        for (lineIndex, line) in lines.enumerated() {
            let cells = line.enumerated().map { index, cell in
                index == line.count - 1 ? cell : cell.padding(toLength: widths[index], withPad: " ", startingAt: 0)
            }
            out += "  " + cells.joined(separator: "  ").trimmingTrailingSpaces() + "\n"
            if lineIndex == 0 {
                out +=
                    "  "
                    + widths.map { String(repeating: "-", count: $0) }.joined(separator: "  ").trimmingTrailingSpaces()
                    + "\n"
            }
        }
        return out
    }

    static func format(_ figure: Benchmark.Figure) -> String {
        guard let value = figure.value, value.isFinite else { return "n/a" }
        let number: String
        if value == value.rounded() && abs(value) < 1e9 {
            number = String(Int(value))
        } else if abs(value) >= 100 {
            number = String(format: "%.0f", value)
        } else if abs(value) >= 10 {
            number = String(format: "%.1f", value)
        } else {
            number = String(format: "%.2f", value)
        }
        return figure.unit.isEmpty ? number : "\(number) \(figure.unit)"
    }
}

private extension String {
    func trimmingTrailingSpaces() -> String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }
}

/// A JSON document whose objects keep their keys in the order written, so the report's
/// JSON reads in the same order as its table.
enum BenchmarkJSON {
    case string(String)
    case number(Double)
    case bool(Bool)
    case null
    case array([BenchmarkJSON])
    case object([(String, BenchmarkJSON)])

    /// Compact JSON text.
    var text: String {
        switch self {
        case .string(let value): return JSONValue.quote(value)
        case .number(let value):
            guard value.isFinite else { return "null" }
            if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
            return String(value)
        case .bool(let value): return value ? "true" : "false"
        case .null: return "null"
        case .array(let values): return "[" + values.map(\.text).joined(separator: ",") + "]"
        case .object(let fields):
            return "{" + fields.map { JSONValue.quote($0.0) + ":" + $0.1.text }.joined(separator: ",") + "}"
        }
    }
}
