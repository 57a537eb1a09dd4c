#pragma once

#include "llm/textcallparser.h"
#include "llm/textdialect.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QStringList>

namespace Sandpiper {

// Sits between the streamed content of an answer and what the user sees. Local servers often
// hand over the model's tool-call markup and its <think> block as plain content; this splits
// them off while the answer streams:
//  - <think>…</think> (or another of thinkTags()) at the start becomes reasoning, also when the
//    stream is cut before it closes;
//  - tool calls written as text in any of textDialects() become ToolCalls, when they stand
//    outside Markdown code.
// Text is held back from the first character that could open markup until it is decided, and
// released unchanged when it turns out to be prose, so markup never shows, not even for a frame.
class ContentFilter
{
    Q_DECLARE_TR_FUNCTIONS(ContentFilter)

public:
    // What may be shown now.
    struct Output {
        QString text;
        QString reasoning;
    };
    struct Result {
        Output released;   // what the end of the stream let out: show it like any delta
        QString content;   // the visible answer: all text ever released
        QString reasoning; // the reasoning that was written into the content
        QList<ToolCall> calls;
        QString dialect;      // the text dialect the calls were written in, empty when none
        QStringList problems; // markup that could not be used, for the user
    };

    // DECLARATIONS: the request's "tools"; without any, or with RECOVERCALLS off, only the
    // <think> block is taken apart.
    ContentFilter(const QJsonArray &declarations, bool recoverCalls);

    Output feed(QStringView delta);
    // The stream ended (or broke off). KEEPCALLS false: the server sent structured calls of its
    // own, so the recovered ones are given back as the text they were.
    Result finish(bool keepCalls = true);

private:
    enum class State { Start, Think, Prose, Markup };
    enum class MarkerMatch { None, Partial, Full };

    bool callsEnabled() const { return m_recover && !m_parser.isEmpty(); }
    void process(Output &out, bool atEnd);
    bool processStart(bool atEnd);
    bool processThink(Output &out, bool atEnd);
    bool processProse(Output &out, bool atEnd);
    bool processMarkup(Output &out, bool atEnd);
    MarkerMatch matchMarker(QStringView rest);
    const TextDialect &dialect() const { return textDialects().at(m_dialect); }
    bool tryNextDialect();

    void advance(QChar c);
    void endRun();
    bool insideCode() const { return !m_fence.isEmpty() || m_inlineTicks > 0; }
    void emitProse(QStringView text, Output &out);
    void emitVerbatim(QStringView text, Output &out);
    void emitReasoning(QStringView text, Output &out);

    TextCallParser m_parser;
    bool m_recover;
    State m_state = State::Start;
    bool m_atAnswerStart = true; // a <think> block opens only here
    bool m_afterThink = false;
    QString m_buffer;          // text not yet decided on
    qsizetype m_spaceSeen = 0; // white space at the start of the buffer, already skipped
    QString m_closer;          // of the open <think> block
    qsizetype m_dialect = 0;   // the row of textDialects() the markup is read as
    QString m_segment;         // the markup being read, from its marker on
    qsizetype m_lookedAt = 0;  // the segment's size when its extent was last worked out
    QString m_softSpace;       // white space at the end of the visible text, shown once text follows
    QString m_softThought;     // the same for reasoning
    QString m_content;
    QString m_reasoning;
    QList<ToolCall> m_calls;
    QString m_callMarkup;  // the text of the recognised calls, for finish(false)
    QString m_dialectName; // of the recognised calls
    QStringList m_problems;

    // Markdown code, where markup is only an example: a fence or an inline code span.
    QString m_fence;
    int m_inlineTicks = 0;
    QChar m_runChar;
    int m_run = 0;
    bool m_runAtLineStart = false;
    bool m_lineStart = true;
    int m_indent = 0;
    QChar m_previous; // the last character of the visible text
};

} // namespace Sandpiper
