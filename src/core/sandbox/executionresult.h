#pragma once

#include "sandbox/datatable.h"

#include <QJsonObject>
#include <QList>
#include <QMap>
#include <QMetaType>
#include <QString>
#include <QStringList>

#include <chrono>
#include <optional>

namespace Sandpiper {

struct ExecuteOptions {
    // Overrides the session's execution timeout when positive.
    std::chrono::milliseconds timeout{0};
    // Figures saved per execution, instead of the session's limit; a replay draws none (0).
    std::optional<int> maxFigures;
    // The names the tables shown get, in order: a replay gives a cell's tables the names they
    // had, so that saving one of them as CSV or Excel finds it in the new kernel.
    QStringList tableIds;
    // Another request than running the code: its op and fields (see kernel.py). It does not
    // take the note that the kernel was restarted, which is for the next run of code.
    QJsonObject request;
};

// What one execution in the sandbox produced. A value type: it crosses threads by copy.
struct ExecutionResult {
    enum class Status {
        Ok,          // ran to the end
        Error,       // raised an exception (or a syntax error)
        Interrupted, // stopped by the user or by the timeout; the state is kept unless stateLost
        Crashed,     // the kernel died (out of memory, segfault, os._exit); the state is lost
        Unavailable, // the sandbox could not be started (no Docker, no image)
    };

    Status status = Status::Unavailable;
    QString value;        // repr of the last expression, empty when none
    QString errorType;    // e.g. ZeroDivisionError, SyntaxError, KeyboardInterrupt
    QString errorMessage; // for Crashed and Unavailable: the likely cause, for the user
    QString traceback;
    QString standardOutput;
    QString standardError;
    qint64 droppedStdoutBytes = 0; // beyond the output limit
    qint64 droppedStderrBytes = 0;
    QStringList figures; // PNG paths relative to the data folder, in display order, checked by the host
    QStringList files;   // new or changed regular files relative to the data folder, checked by the host
    // Those of FILES a remote engine's container kept (too large to copy at once), with their
    // size: they come to the folder when the user opens or saves them (EngineFiles).
    QMap<QString, qint64> onEngine;
    QList<DataTable> tables; // DataFrames, Series and HTML tables shown, in display order
    QStringList markdown;    // display(Markdown(...)) and _repr_markdown_, in display order
    QStringList svg;         // _repr_svg_ images, as SVG text
    // Which of the tables, Markdown, SVG and figures show the last expression's value (a
    // DataFrame's table, a Figure), by index: a notebook writes them with the value's text as
    // one result, as Jupyter does, instead of showing the value twice.
    struct ValueDisplays {
        QList<int> tables;
        QList<int> markdown;
        QList<int> svg;
        QList<int> figures;
        friend bool operator==(const ValueDisplays &, const ValueDisplays &) = default;
    };
    ValueDisplays valueDisplays;
    // What Sandpiper adds for the user and the model, e.g. that pip needs the network.
    QStringList notes;
    // Figures beyond the per-execution limit: counted, neither kept nor shown.
    int figuresNotKept = 0;
    // What the host refused of what the sandbox reported (names outside the folder, links,
    // special files, oversized figures, broken protocol lines), a sentence each, for the user
    // and the model.
    QStringList refused;
    // Set when the host stopped the execution itself: the folder reached its disk limit, or the
    // disk is almost full. Says so, for the user and the model.
    QString stopReason;
    qint64 durationMs = 0;
    bool timedOut = false;
    // The kernel was replaced after an interrupt failed: variables and imports are gone.
    bool stateLost = false;
    // This execution ran in a fresh kernel because the previous one died or was stopped.
    bool stateReset = false;

    static QString statusName(Status status);
    // The tables, Markdown, SVG, notes, value displays and the files on the engine as one JSON
    // object (how the store keeps them), and back.
    QJsonObject richOutputJson() const;
    void setRichOutput(const QJsonObject &object);
};

} // namespace Sandpiper

Q_DECLARE_METATYPE(Sandpiper::ExecutionResult)
