// Reads pages docc made (`data/documentation/<path>.json` in the archive) and fails when docc
// had to file a symbol under a group of its own ("Classes", "Instance Methods", …) on one of
// them: every public symbol at the top of the module belongs in a task group of the landing
// page (or of an article it lists), and so does every member of the pages named after it.
//
// usage: swift .ci/tools/CheckCuration.swift ARCHIVE MODULE [PAGE...]
//   PAGE: a page below the module, such as `AccessEnabler/AccessEnabler` (the class of that name)
import Foundation

let arguments = CommandLine.arguments
guard arguments.count >= 3 else {
    FileHandle.standardError.write(Data("usage: CheckCuration.swift ARCHIVE MODULE [PAGE...]\n".utf8))
    exit(2)
}
let archive = URL(fileURLWithPath: arguments[1])
let module = arguments[2]
let pages = [module] + arguments.dropFirst(3).map { "\(module)/\($0)" }

var problems = ""
for page in pages {
    let file = archive.appendingPathComponent("data/documentation/\(page.lowercased()).json")
    guard let data = try? Data(contentsOf: file),
          let json = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
    else {
        FileHandle.standardError.write(Data("CheckCuration: cannot read \(file.path)\n".utf8))
        exit(2)
    }
    let sections = json["topicSections"] as? [[String: Any]] ?? []
    let curated = sections.filter { ($0["generated"] as? Bool) != true }
    let automatic = sections.filter { ($0["generated"] as? Bool) == true }
    let entries = curated.reduce(0) { $0 + (($1["identifiers"] as? [String])?.count ?? 0) }
    print("docs: \(page): \(curated.count) task groups, \(entries) entries")
    for section in automatic {
        let names = (section["identifiers"] as? [String] ?? []).map { $0.split(separator: "/").last.map(String.init) ?? $0 }
        problems += "  \(page), \(section["title"] as? String ?? "?"): \(names.joined(separator: ", "))\n"
    }
}

guard !problems.isEmpty else { exit(0) }
FileHandle.standardError.write(Data("""
    docs: these public symbols are in no task group, so docc filed them under groups of its own:
    \(problems)Add each to the Topics of its page in Sources/\(module)/\(module).docc (the landing page \(module).md, or the page that extends its type).

    """.utf8))
exit(1)
