-- A runner's cores (os.availableParallelism() where it runs), recorded when it registers: the New run form's
-- "auto" runner processes fill in the cores of the runner that will execute the run. NULL for a runner of an
-- older version, which did not record them.
ALTER TABLE "runner" ADD COLUMN "cores" INTEGER;
