<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en" sourcelanguage="en">
<context>
    <name>Sandpiper::ConversationActions</name>
    <message numerus="yes">
        <source>%n code cell(s).</source>
        <translation>
            <numerusform>%n code cell.</numerusform>
            <numerusform>%n code cells.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n figure(s) were missing or refused; the notebook names them in their place.</source>
        <translation>
            <numerusform>%n figure was missing or refused; the notebook names it in its place.</numerusform>
            <numerusform>%n figures were missing or refused; the notebook names them in their place.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Sandpiper::ConversationItemDelegate</name>
    <message numerus="yes">
        <source>%n match(es)</source>
        <translation>
            <numerusform>%n match</numerusform>
            <numerusform>%n matches</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Sandpiper::ConversationListModel</name>
    <message numerus="yes">
        <source>%1: %2 (%n match(es))</source>
        <comment>a search hit: title, snippet, count</comment>
        <translation>
            <numerusform>%1: %2 (%n match)</numerusform>
            <numerusform>%1: %2 (%n matches)</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Sandpiper::DataTableView</name>
    <message numerus="yes">
        <source>%n rows</source>
        <translation>
            <numerusform>%n row</numerusform>
            <numerusform>%n rows</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n columns</source>
        <translation>
            <numerusform>%n column</numerusform>
            <numerusform>%n columns</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Sandpiper::EngineFilesOnQuit</name>
    <message numerus="yes">
        <source>and %n more</source>
        <translation>
            <numerusform>and %n more</numerusform>
            <numerusform>and %n more</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n file(s) that the code made (%1 in all) are only in the sandbox on the Docker engine, and are lost when Sandpiper quits:</source>
        <translation>
            <numerusform>%n file that the code made (%1) is only in the sandbox on the Docker engine, and is lost when Sandpiper quits:</numerusform>
            <numerusform>%n files that the code made (%1 in all) are only in the sandbox on the Docker engine, and are lost when Sandpiper quits:</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Sandpiper::KernelProtocol</name>
    <message numerus="yes">
        <source>%n more tables were shown than are kept (%1 per run).</source>
        <translation>
            <numerusform>%n more table was shown than are kept (%1 per run).</numerusform>
            <numerusform>%n more tables were shown than are kept (%1 per run).</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Sandpiper::KernelRestore</name>
    <message numerus="yes">
        <source>it changed %1 and %n more file(s)</source>
        <translation>
            <numerusform>it changed %1 and %n more file</numerusform>
            <numerusform>it changed %1 and %n more files</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n cell(s) that write files were skipped.</source>
        <translation>
            <numerusform>%n cell that writes files was skipped.</numerusform>
            <numerusform>%n cells that write files were skipped.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Sandpiper::KernelRestoreBar</name>
    <message numerus="yes">
        <source>Python&apos;s variables are gone (%1). Running the %n earlier successful cell(s) again brings them back.</source>
        <translation>
            <numerusform>Python&apos;s variables are gone (%1). Running the %n earlier successful cell again brings them back.</numerusform>
            <numerusform>Python&apos;s variables are gone (%1). Running the %n earlier successful cells again brings them back.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n of the cells write files in /mnt/data. Running them again may overwrite or duplicate those files.</source>
        <translation>
            <numerusform>%n of the cells writes files in /mnt/data. Running it again may overwrite or duplicate those files.</numerusform>
            <numerusform>%n of the cells write files in /mnt/data. Running them again may overwrite or duplicate those files.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Python still holds another branch&apos;s variables. Running %n cell(s) of this branch again brings the sandbox here.</source>
        <translation>
            <numerusform>Python still holds another branch&apos;s variables. Running %n cell of this branch again brings the sandbox here.</numerusform>
            <numerusform>Python still holds another branch&apos;s variables. Running %n cells of this branch again brings the sandbox here.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Bringing the sandbox to this branch stopped at %1. Going on runs the %n cell(s) after it.</source>
        <translation>
            <numerusform>Bringing the sandbox to this branch stopped at %1. Going on runs the %n cell after it.</numerusform>
            <numerusform>Bringing the sandbox to this branch stopped at %1. Going on runs the %n cells after it.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Sandpiper::LocalModelHost</name>
    <message numerus="yes">
        <source>There are %n models on this computer: choose the one to run.</source>
        <translation>
            <numerusform>There is %n model on this computer: choose the one to run.</numerusform>
            <numerusform>There are %n models on this computer: choose the one to run.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Sandpiper::LocalRunner</name>
    <message numerus="yes">
        <source>The local model was stopped after %n minute(s) without use; it starts again with the next message.</source>
        <translation>
            <numerusform>The local model was stopped after %n minute without use; it starts again with the next message.</numerusform>
            <numerusform>The local model was stopped after %n minutes without use; it starts again with the next message.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Sandpiper::MathRenderer</name>
    <message numerus="yes">
        <source>The formula is longer than %n characters.</source>
        <translation>
            <numerusform>The formula is longer than %n character.</numerusform>
            <numerusform>The formula is longer than %n characters.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Sandpiper::McpSettingsPage</name>
    <message numerus="yes">
        <source>%n MCP server(s) are set up in %1. Use them in Sandpiper too?</source>
        <translation>
            <numerusform>%n MCP server is set up in %1. Use it in Sandpiper too?</numerusform>
            <numerusform>%n MCP servers are set up in %1. Use them in Sandpiper too?</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>running with %n tool(s)</source>
        <translation>
            <numerusform>running with %n tool</numerusform>
            <numerusform>running with %n tools</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Test: connected, %n tool(s).</source>
        <translation>
            <numerusform>Test: connected, %n tool.</numerusform>
            <numerusform>Test: connected, %n tools.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Sandpiper::ModelDownloadPanel</name>
    <message numerus="yes">
        <source>%n s left</source>
        <translation>
            <numerusform>%n s left</numerusform>
            <numerusform>%n s left</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n min left</source>
        <translation>
            <numerusform>%n min left</numerusform>
            <numerusform>%n min left</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Sandpiper::ModelProbe</name>
    <message numerus="yes">
        <source>%n calls came back:</source>
        <translation>
            <numerusform>%n call came back:</numerusform>
            <numerusform>%n calls came back:</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Sandpiper::ModelSettingsPage</name>
    <message numerus="yes">
        <source>%1 tokens of context for each of %n conversation(s), %2 threads, %3; by %4; %5</source>
        <translation>
            <numerusform>%1 tokens of context for %n conversation, %2 threads, %3; by %4; %5</numerusform>
            <numerusform>%1 tokens of context for each of %n conversations, %2 threads, %3; by %4; %5</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Sandpiper::NotebookExport</name>
    <message numerus="yes">
        <source>(%n more figure(s) were not kept)</source>
        <translation>
            <numerusform>(%n more figure was not kept)</numerusform>
            <numerusform>(%n more figures were not kept)</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Sandpiper::RunnerImage</name>
    <message numerus="yes">
        <source>Nothing was heard from it for %n second(s).</source>
        <translation>
            <numerusform>Nothing was heard from it for %n second.</numerusform>
            <numerusform>Nothing was heard from it for %n seconds.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Nothing was heard from it for %n minute(s).</source>
        <translation>
            <numerusform>Nothing was heard from it for %n minute.</numerusform>
            <numerusform>Nothing was heard from it for %n minutes.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>It took longer than %n minute(s).</source>
        <translation>
            <numerusform>It took longer than %n minute.</numerusform>
            <numerusform>It took longer than %n minutes.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Sandpiper::SvgFigure</name>
    <message numerus="yes">
        <source>%n external reference(s) were not loaded: the figure shows only what it contains.</source>
        <translation>
            <numerusform>%n external reference was not loaded: the figure shows only what it contains.</numerusform>
            <numerusform>%n external references were not loaded: the figure shows only what it contains.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Sandpiper::ToolCallCard</name>
    <message numerus="yes">
        <source>%n s</source>
        <translation>
            <numerusform>%n s</numerusform>
            <numerusform>%n s</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Schema</name>
    <message numerus="yes">
        <source>%n run(s) of code whose message was gone are kept with their conversation and shown on every branch of it.</source>
        <translation>
            <numerusform>%n run of code whose message was gone is kept with its conversation and shown on every branch of it.</numerusform>
            <numerusform>%n runs of code whose message was gone are kept with their conversation and shown on every branch of it.</numerusform>
        </translation>
    </message>
</context>
</TS>
