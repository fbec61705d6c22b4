"""Every writer of human output: the API's formats (``formats``), a claims run's Markdown and JSON
(``run_report``), HTML (``html_report``) and JUnit XML (``junit``), the plots (``plot``, ``atlas_plot``),
a dry run's plan (``plan_text``) and the probe's findings in sentences (``probe_summary``)."""
