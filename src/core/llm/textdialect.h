#pragma once

#include "llm/textcallparser.h"

#include <QCoreApplication>
#include <QList>
#include <QString>

namespace Sandpiper {

// One way in which a model family writes tool calls into the text of its answer, as they land
// there when the server's own parser misses them (an unknown template, an old server, a new
// model). The table of them, textDialects(), is all that ContentFilter knows about formats: the
// next family is a row there and a test.
struct TextDialect {
    Q_DECLARE_TR_FUNCTIONS(TextDialect)

public:
    // How the markup's body is read after its marker. Each kind has one rule for where the
    // markup ends and one for what it calls.
    enum class Body {
        Json,        // a JSON call or an array of them ({"name": …, "arguments": …}), then the closer
        JsonObjects, // JSON calls separated by ';' or white space, and nothing else to the end
        FunctionXml, // <function=NAME><parameter=KEY>VALUE</parameter></function>…
        ArgPairs,    // NAME, then <arg_key>KEY</arg_key><arg_value>VALUE</arg_value>…, then the closer
        Mistral,     // a JSON array, or NAME[ARGS]{…} and NAME[CALL_ID]ID[ARGS]{…}
        Pythonic,    // [NAME(key=value, …), …]
        Harmony,     // a channel header up to <|message|>: with a recipient, a call and its JSON
        Blocks,      // calls between callBegin and callEnd, their name and arguments split by separator
        Token,       // a control token with nothing to say: dropped
    };
    enum class Verdict {
        Incomplete, // more text is needed to decide
        Complete,   // markup up to end: parse it
        NotMarkup,  // prose after all (or another dialect with the same marker)
        Dropped,    // markup up to end that calls nothing: removed from the answer
    };
    struct Extent {
        Verdict verdict = Verdict::Incomplete;
        qsizetype end = 0;
    };

    QString name;   // the family, as the report card names it
    QString marker; // opens the markup outside Markdown code; empty: only a whole answer counts
    Body body;
    // The markup counts only when it names a declared tool: for markers that text also uses.
    bool declaredOnly = false;
    QString closer;                        // may follow the body (Json, FunctionXml, ArgPairs) or ends the blocks
    QString callBegin, separator, callEnd; // Blocks

    // Where the markup in SEGMENT (from the marker on) ends.
    Extent extent(QStringView segment, const TextCallParser &parser, bool atEnd) const;
    // The calls in MARKUP, which extent() said is complete.
    TextCallParser::Result parse(QStringView markup, const TextCallParser &parser) const;
};

// Every dialect, rows with the same marker in the order they are tried.
const QList<TextDialect> &textDialects();

// A block of reasoning written into the content at the start of an answer.
struct ThinkTags {
    QString open;
    QString close;
};
const QList<ThinkTags> &thinkTags();

} // namespace Sandpiper
