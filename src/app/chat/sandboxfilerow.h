#pragma once

#include <QWidget>

class QLabel;
class QPushButton;

namespace Sandpiper {

// A file the code wrote into the conversation's folder: its name, Open and Save (through
// SandboxFileActions: checked at that moment, never run). A file that a remote engine's
// container kept (too large to copy at once) shows its size and where it is, and comes to the
// folder when the user opens or saves it (EngineFiles).
class SandboxFileRow : public QWidget
{
    Q_OBJECT

public:
    // NAME is relative to FOLDER, the conversation's folder on this machine. ENGINESIZE is the
    // size of a file the engine kept, or -1 for one that is here.
    SandboxFileRow(const QString &folder, const QString &name, qint64 engineSize = -1, QWidget *parent = nullptr);

private:
    void open();
    void save();
    // Runs ACTION once the file is here: at once, or after fetching it from the engine.
    void whenHere(void (SandboxFileRow::*action)());
    bool isOnEngine() const;
    void showState(bool fetching);

    QString m_folder;
    QString m_name;
    qint64 m_engineSize;
    QLabel *m_label;
    QPushButton *m_openButton;
    QPushButton *m_saveButton;
};

} // namespace Sandpiper
