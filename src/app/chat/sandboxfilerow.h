#pragma once

#include <QWidget>

namespace Sandpiper {

// A file the code wrote into the conversation's folder: its name, Open and Save (through
// SandboxFileActions: checked at that moment, never run).
class SandboxFileRow : public QWidget
{
    Q_OBJECT

public:
    // NAME is relative to FOLDER, the conversation's folder on this machine.
    SandboxFileRow(const QString &folder, const QString &name, QWidget *parent = nullptr);

private:
    void open();
    void save();

    QString m_folder;
    QString m_name;
};

} // namespace Sandpiper
