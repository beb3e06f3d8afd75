// Reads the landing page docc made for a module (`data/documentation/<module>.json` in the
// archive) and fails when docc had to file a symbol under a group of its own ("Classes",
// "Structures", "Variables", …): every public symbol at the top of the module belongs in a
// task group of the landing page or of an article it lists.
//
// usage: swift .ci/tools/CheckCuration.swift ARCHIVE MODULE
import Foundation

let arguments = CommandLine.arguments
guard arguments.count == 3 else {
    FileHandle.standardError.write(Data("usage: CheckCuration.swift ARCHIVE MODULE\n".utf8))
    exit(2)
}
let page = URL(fileURLWithPath: arguments[1]).appendingPathComponent("data/documentation/\(arguments[2].lowercased()).json")
guard let data = try? Data(contentsOf: page),
      let json = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
else {
    FileHandle.standardError.write(Data("CheckCuration: cannot read the landing page \(page.path)\n".utf8))
    exit(2)
}

let sections = json["topicSections"] as? [[String: Any]] ?? []
let curated = sections.filter { ($0["generated"] as? Bool) != true }
let automatic = sections.filter { ($0["generated"] as? Bool) == true }
let curatedCount = curated.reduce(0) { $0 + (($1["identifiers"] as? [String])?.count ?? 0) }
print("docs: the landing page has \(curated.count) task groups, \(curatedCount) entries")

guard !automatic.isEmpty else { exit(0) }
var message = "docs: these public symbols are in no task group, so docc filed them under groups of its own:\n"
for section in automatic {
    let names = (section["identifiers"] as? [String] ?? []).map { $0.split(separator: "/").last.map(String.init) ?? $0 }
    message += "  \(section["title"] as? String ?? "?"): \(names.joined(separator: ", "))\n"
}
message += "Add each to the Topics of Sources/\(arguments[2])/\(arguments[2]).docc/\(arguments[2]).md (or of an article listed there).\n"
FileHandle.standardError.write(Data(message.utf8))
exit(1)
