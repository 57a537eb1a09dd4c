#pragma once

#include <QString>
#include <QStringList>

namespace Sandpiper {

// Models are sloppy with tool arguments. This recovers the one string argument a tool needs
// (such as execute_python_code's "code") from what they actually send:
//   {"code": "..."}                      the expected shape
//   print(1)                             a bare code string instead of a JSON object
//   ```python\nprint(1)\n```              the code inside a Markdown fence (bare or in JSON)
//   "{\"code\": \"print(1)\"}"           double-encoded JSON
//   {"code": "print(1)"} trailing junk    garbage after the JSON object
//   {"source": "..."}                    an alias: source, python, script, ...
struct RepairedArgument {
    QString value;
    QString error;         // set when nothing could be recovered: says what was wrong and what is expected
    bool repaired = false; // the arguments were not in the expected shape
    bool ok() const { return error.isEmpty(); }
};

RepairedArgument repairStringArgument(const QString &rawArguments, const QString &key, const QStringList &aliases);

// Removes a Markdown code fence around TEXT, if there is one.
QString stripCodeFence(const QString &text);

} // namespace Sandpiper
